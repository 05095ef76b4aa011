package procgroup

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Printable returns s fit to show on a terminal or in a log: terminal
// escape sequences (colours, cursor moves, window titles) are removed,
// tabs become spaces, other control characters and bidirectional
// overrides are dropped, and invalid UTF-8 becomes '?'. Newlines stay, so
// callers can still split lines. Output of a command we did not write
// must never drive the reader's terminal.
func Printable(s string) string {
	s = ansi.Strip(strings.ToValidUTF8(s, "?"))
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '\t':
			return ' '
		case unicode.IsControl(r), isBidiControl(r):
			return -1
		}
		return r
	}, s)
}

// isBidiControl reports the embedding, override and isolate characters
// that reorder what follows them on screen ("Trojan Source").
func isBidiControl(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}

// OneLine is Printable with every run of whitespace, newlines included,
// folded to one space: for quoting output inside a one-line message.
func OneLine(s string) string {
	return strings.Join(strings.Fields(Printable(s)), " ")
}

// Shorten returns s cut to about max bytes, on a character boundary, with
// the full length said: a database error quoting a 100 MB value must not
// become a 100 MB message.
func Shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], len(s))
}
