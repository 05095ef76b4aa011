package pixkey

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// MaxEmailLength is DICT's limit for an e-mail key, in characters.
const MaxEmailLength = 77

// emailLocalSpecials are the non-alphanumeric characters DICT's pattern
// allows in the local part.
const emailLocalSpecials = ".!#$&'*+/=?^_`{|}~-"

// NormalizeEmail trims s (Python's whitespace set), puts it in Unicode NFC,
// lowercases it (full Unicode mapping) and checks it against DICT's e-mail
// pattern,
//
//	^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$
//
// with at most 77 characters. Internationalized addresses are accepted: the
// pattern's a-z0-9 also admits non-ASCII letters, marks and digits, so
// "José@Ex.com" — composed or decomposed — is the key "josé@ex.com".
func NormalizeEmail(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", invalid(Email, s, "not valid UTF-8")
	}
	t := norm.NFC.String(trimSpace(s))
	t = norm.NFC.String(cases.Lower(language.Und).String(t))
	if t == "" {
		return "", invalid(Email, s, "empty")
	}
	if n := utf8.RuneCountInString(t); n > MaxEmailLength {
		return "", invalid(Email, s, "has %d characters, at most %d", n, MaxEmailLength)
	}
	at := strings.IndexByte(t, '@')
	if at < 0 {
		return "", invalid(Email, s, "no @")
	}
	local, domain := t[:at], t[at+1:]
	if local == "" {
		return "", invalid(Email, s, "nothing before the @")
	}
	for _, r := range local {
		if !isEmailAlnum(r) && !strings.ContainsRune(emailLocalSpecials, r) {
			return "", invalid(Email, s, "the part before the @ contains %q", r)
		}
	}
	if reason := checkDomain(domain); reason != "" {
		return "", invalid(Email, s, "%s", reason)
	}
	return t, nil
}

func isEmailAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || isDigit(r)
	}
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)
}

// checkDomain returns why domain is not a dot-separated list of labels of
// 1–63 letters, digits and inner hyphens, or "".
func checkDomain(domain string) string {
	if domain == "" {
		return "nothing after the @"
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" {
			return "the domain " + quote(domain) + " has an empty label"
		}
		if utf8.RuneCountInString(label) > 63 {
			return "the domain label " + quote(label) + " is longer than 63 characters"
		}
		if strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return "the domain label " + quote(label) + " starts or ends with -"
		}
		for _, r := range label {
			if !isEmailAlnum(r) && r != '-' {
				return "the domain contains " + quoteRune(r)
			}
		}
	}
	return ""
}
