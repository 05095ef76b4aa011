package procgroup

import (
	"strings"
	"unicode"

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
