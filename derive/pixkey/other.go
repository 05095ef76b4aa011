package pixkey

import "strings"

// Other returns a valid identifier of kind k that differs from s, made by
// changing one character of its canonical form. A key function whose key
// does not change for Other(s) ignores the field altogether — a check that
// all spellings of s agree would then pass for the wrong reason.
func Other(k Kind, s string) (string, error) {
	c, err := Normalize(k, s)
	if err != nil {
		return "", err
	}
	switch k {
	case CPF:
		return firstValid(k, 10, func(i int) string {
			out, _ := CompleteCPF(bump(c[:9], 8, i))
			return out
		}, c)
	case CNPJ:
		return firstValid(k, 10, func(i int) string {
			out, _ := CompleteCNPJ(bump(c[:12], 7, i))
			return out
		}, c)
	case Phone:
		return firstValid(k, 10, func(i int) string { return bump(c, len(c)-1, i) }, c)
	case Email:
		at := strings.IndexByte(c, '@')
		rest := string([]rune(c)[1:])
		return firstValid(k, 3, func(i int) string {
			switch {
			case i == 0 && len([]rune(c)) < MaxEmailLength:
				return c[:at] + ".o" + c[at:]
			case i == 1:
				return "o" + rest
			}
			return "p" + rest
		}, c)
	case EVP:
		return firstValid(k, 10, func(i int) string { return bump(c, len(c)-1, i) }, c)
	}
	return "", invalid(k, s, "unknown key type")
}

// bump changes the digit or letter at byte position pos of s by i+1 steps,
// wrapping within its class.
func bump(s string, pos, i int) string {
	b := []byte(s)
	step := byte(i + 1)
	switch c := b[pos]; {
	case c >= '0' && c <= '9':
		b[pos] = '0' + (c-'0'+step)%10
	case c >= 'a' && c <= 'f':
		b[pos] = 'a' + (c-'a'+step)%6
	case c >= 'A' && c <= 'Z':
		b[pos] = 'A' + (c-'A'+step)%26
	}
	return string(b)
}

func firstValid(k Kind, tries int, candidate func(int) string, c string) (string, error) {
	for i := 0; i < tries; i++ {
		v := candidate(i)
		if n, err := Normalize(k, v); err == nil && n != c {
			return n, nil
		}
	}
	return "", invalid(k, c, "no other valid value found near it")
}
