package procgroup

import (
	"fmt"
	"strconv"
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

// Escaped returns s with what would act on a terminal shown as Go escapes
// instead (ESC as \x1b, BEL as \a, a C1 control as \u009b, a
// bidirectional override as \u202e, an invalid byte as \xff), and the
// rest unchanged: for input the user gave (a value, a path, a field
// name), which must be seen as it is, never obeyed.
func Escaped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsControl(r), isBidiControl(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
