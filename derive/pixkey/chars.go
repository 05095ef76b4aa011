package pixkey

import (
	"strconv"
	"strings"
	"unicode"
)

// isPySpace reports whether Python's str.strip() removes r: the Unicode
// whitespace set plus the ASCII information separators U+001C–U+001F.
func isPySpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0,
		0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// trimSpace strips surrounding whitespace the way Python's str.strip() does,
// so the new rules agree with the reference's on what counts as a space.
func trimSpace(s string) string { return strings.TrimFunc(s, isPySpace) }

// isSeparator reports whether r is punctuation a person or a system puts
// inside a document number: spaces of any kind, punctuation (dots, dashes,
// slashes, underscores, en dashes) and invisible format characters
// (zero-width space, BOM). Letters, digits, symbols (+, $, emoji) and
// control characters are not separators: a value holding them is refused.
func isSeparator(r rune) bool {
	return isPySpace(r) || unicode.IsPunct(r) || unicode.Is(unicode.Cf, r)
}

// stripSeparators removes every separator from s and returns the remaining
// characters.
func stripSeparators(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !isSeparator(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func allSame(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			return false
		}
	}
	return true
}

func quote(s string) string   { return strconv.Quote(s) }
func quoteRune(r rune) string { return strconv.QuoteRune(r) }
