package derive

import (
	"fmt"
	"strings"
	"unicode"
)

// Warning is a likely mistake in an intent that still derives a key: the key
// is the reference's for the input, but the input may not say what its
// sender meant. Warnings never change a key.
type Warning struct {
	Field   string // the schema field the warning is about
	Message string
}

func (w Warning) String() string { return fmt.Sprintf("field %q: %s", w.Field, w.Message) }

// centsWords are the name parts that say a value is counted in cents.
var centsWords = map[string]bool{"cent": true, "cents": true, "centavo": true, "centavos": true, "centimos": true}

// namedLikeCents reports whether a field name says its value is in cents:
// amount_cents, amountCents, valor_centavos, cents.
func namedLikeCents(name string) bool {
	for _, part := range nameParts(name) {
		if centsWords[part] {
			return true
		}
	}
	return false
}

// nameParts splits a field name at punctuation and at lower-to-upper case
// changes, lowercased: "amountInCents" → amount, in, cents.
func nameParts(name string) []string {
	var parts []string
	var cur strings.Builder
	var prev rune
	flush := func() {
		if cur.Len() > 0 {
			parts = append(parts, strings.ToLower(cur.String()))
			cur.Reset()
		}
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur.WriteRune(r)
		default:
			cur.WriteRune(r)
		}
		prev = r
	}
	flush()
	return parts
}

// centsFields returns the indexes of the fields with rule cents whose names
// say cents: the rule reads reais, so such a field invites a value already
// in cents, which it would multiply by 100.
func centsFields(a *Action) []int {
	var out []int
	for i, f := range a.Fields {
		if f.Rule == "cents" && namedLikeCents(f.Name) {
			out = append(out, i)
		}
	}
	return out
}

// alreadyCentsWarning warns when field f, with rule cents and a name that
// says cents, holds an integer (a JSON integer, or a string of digits): most
// likely an amount already in cents, which the rule turned into normalized,
// 100 times itself (15000 → 1500000).
func alreadyCentsWarning(f Field, v Value, normalized []byte) (Warning, bool) {
	switch {
	case v.IsInteger():
	case v.Kind == KindString:
		if s, _ := v.Text(); !isIntegerText(strings.Trim(s, " \t")) {
			return Warning{}, false
		}
	default:
		return Warning{}, false
	}
	return Warning{Field: f.Name, Message: fmt.Sprintf(
		"%s is an integer on a field named like cents, but rule cents reads reais and multiplies by 100: the key holds %s; if the value is already in cents, give the field rule text",
		plainValue(v.Raw), quoteValue(normalized))}, true
}

// isIntegerText reports whether s is an optional sign and ASCII digits.
func isIntegerText(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
