package pixkey

import "fmt"

// NormalizeCPF returns the 11 digits of a valid CPF, accepting any mask or
// separators around and between them ("111.444.777-35", " 111 444 777 35").
func NormalizeCPF(s string) (string, error) {
	digits := stripSeparators(s)
	if digits == "" {
		return "", invalid(CPF, s, "no digits")
	}
	for _, r := range digits {
		if !isDigit(r) {
			return "", invalid(CPF, s, "contains %q; a CPF has only digits", r)
		}
	}
	if len(digits) != 11 {
		return "", invalid(CPF, s, "has %d digits, a CPF has 11", len(digits))
	}
	if allSame(digits) {
		return "", invalid(CPF, s, "all digits are equal")
	}
	want := cpfCheckDigits(digits[:9])
	if digits[9:] != want {
		return "", invalid(CPF, s, "check digits %s do not match (want %s)", digits[9:], want)
	}
	return digits, nil
}

// CompleteCPF appends the two check digits to the first 9 digits of a CPF.
func CompleteCPF(base string) (string, error) {
	if len(base) != 9 {
		return "", fmt.Errorf("CPF base %q: want 9 digits", base)
	}
	for _, r := range base {
		if !isDigit(r) {
			return "", fmt.Errorf("CPF base %q: want 9 digits", base)
		}
	}
	return base + cpfCheckDigits(base), nil
}

// cpfCheckDigits computes both mod-11 check digits for 9 digits: weights 10
// down to 2 for the first, 11 down to 2 (over 10 digits) for the second.
func cpfCheckDigits(base string) string {
	d1 := mod11(base, 10)
	d2 := mod11(base+string(d1), 11)
	return string(d1) + string(d2)
}

// mod11 weighs the digits of s from topWeight downwards and returns the
// check digit: '0' when the remainder is below 2, else 11 − remainder.
func mod11(s string, topWeight int) byte {
	sum := 0
	for i := 0; i < len(s); i++ {
		sum += int(s[i]-'0') * (topWeight - i)
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

func maskCPF(c string) string {
	return c[0:3] + "." + c[3:6] + "." + c[6:9] + "-" + c[9:11]
}
