package pixkey

import "strings"

// NormalizeEVP returns a Pix random key (a UUID) in canonical lowercase
// hyphenated form. Upper or lower case, with or without the four hyphens,
// and surrounding whitespace are accepted; the nil UUID is not a key.
func NormalizeEVP(s string) (string, error) {
	t := strings.ToLower(trimSpace(s))
	var hex string
	switch len(t) {
	case 36:
		for _, i := range []int{8, 13, 18, 23} {
			if t[i] != '-' {
				return "", invalid(EVP, s, "hyphens must separate the groups 8-4-4-4-12")
			}
		}
		hex = strings.ReplaceAll(t, "-", "")
	case 32:
		hex = t
	default:
		return "", invalid(EVP, s, "has %d characters, a UUID has 36 (or 32 without hyphens)", len(t))
	}
	for _, r := range hex {
		if !isDigit(r) && (r < 'a' || r > 'f') {
			return "", invalid(EVP, s, "contains %q; a UUID has only hexadecimal digits", r)
		}
	}
	if len(hex) != 32 {
		return "", invalid(EVP, s, "hyphens must separate the groups 8-4-4-4-12")
	}
	if strings.Trim(hex, "0") == "" {
		return "", invalid(EVP, s, "the nil UUID is not a key")
	}
	return hex[0:8] + "-" + hex[8:12] + "-" + hex[12:16] + "-" + hex[16:20] + "-" + hex[20:32], nil
}
