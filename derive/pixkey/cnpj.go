package pixkey

import "fmt"

// NormalizeCNPJ returns the 14 characters of a valid CNPJ in upper case,
// numeric ("16727230000197") or alphanumeric as defined by IN RFB
// 2.229/2024 ("12ABC34501DE35"): 12 characters [0-9A-Z] and 2 numeric check
// digits. Letters are uppercased before validating; any mask or separators
// are accepted.
func NormalizeCNPJ(s string) (string, error) {
	chars := []byte{}
	for _, r := range stripSeparators(s) {
		switch {
		case isDigit(r), r >= 'A' && r <= 'Z':
			chars = append(chars, byte(r))
		case r >= 'a' && r <= 'z':
			chars = append(chars, byte(r-'a'+'A'))
		default:
			return "", invalid(CNPJ, s, "contains %q; a CNPJ has only digits and letters A-Z", r)
		}
	}
	c := string(chars)
	if c == "" {
		return "", invalid(CNPJ, s, "no digits")
	}
	if len(c) != 14 {
		return "", invalid(CNPJ, s, "has %d characters, a CNPJ has 14", len(c))
	}
	if !isDigit(rune(c[12])) || !isDigit(rune(c[13])) {
		return "", invalid(CNPJ, s, "check digits %s must be numeric", c[12:])
	}
	if allSame(c) {
		if c[0] == '0' {
			return "", invalid(CNPJ, s, "all zeros")
		}
		return "", invalid(CNPJ, s, "all characters are equal")
	}
	want := cnpjCheckDigits(c[:12])
	if c[12:] != want {
		return "", invalid(CNPJ, s, "check digits %s do not match (want %s)", c[12:], want)
	}
	return c, nil
}

// CompleteCNPJ appends the two check digits to the first 12 characters of a
// CNPJ ([0-9A-Z], lower case accepted).
func CompleteCNPJ(base string) (string, error) {
	b := []byte(base)
	if len(b) != 12 {
		return "", fmt.Errorf("CNPJ base %q: want 12 characters [0-9A-Z]", base)
	}
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9', c >= 'A' && c <= 'Z':
		case c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		default:
			return "", fmt.Errorf("CNPJ base %q: want 12 characters [0-9A-Z]", base)
		}
	}
	return string(b) + cnpjCheckDigits(string(b)), nil
}

// cnpjCheckDigits computes the two check digits of IN RFB 2.229/2024 over 12
// characters: each is worth its ASCII code − 48 (so digits keep their value
// and 'A' is 17), weighted 2..9 repeating from the right; the digit is 0
// when the sum mod 11 is below 2, else 11 − (sum mod 11).
func cnpjCheckDigits(base string) string {
	d1 := cnpjDigit(base)
	d2 := cnpjDigit(base + string(d1))
	return string(d1) + string(d2)
}

func cnpjDigit(s string) byte {
	sum, weight := 0, 2
	for i := len(s) - 1; i >= 0; i-- {
		sum += int(s[i]-'0') * weight
		weight++
		if weight > 9 {
			weight = 2
		}
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

func maskCNPJ(c string) string {
	return c[0:2] + "." + c[2:5] + "." + c[5:8] + "/" + c[8:12] + "-" + c[12:14]
}
