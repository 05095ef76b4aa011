package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWrapLine(t *testing.T) {
	cases := []struct {
		line          string
		width, indent int
		want          string
	}{
		{"short line", 80, 0, "short line"},
		{"no width given keeps the line whole", 0, 0, "no width given keeps the line whole"},
		{"one two three four", 9, 2, "one two\n  three\n  four"},
		{"      --format FORMAT   output FORMAT: github, json, sarif, text", 50, 24,
			"      --format FORMAT   output FORMAT: github,\n                        json, sarif, text"},
		// An indent past half the width would leave no room: it is cut.
		{"      --format FORMAT   output FORMAT: github, json, sarif, text", 40, 24,
			"      --format FORMAT   output FORMAT:\n                    github, json, sarif,\n                    text"},
		{"a supercalifragilistic word", 10, 0, "a\nsupercalifragilistic\nword"},
		{"keeps  inner  spacing of the first piece", 20, 0, "keeps  inner\nspacing of the first\npiece"},
	}
	for _, c := range cases {
		if got := WrapLine(c.line, c.width, c.indent); got != c.want {
			t.Errorf("WrapLine(%q, %d, %d) =\n%s\nwant\n%s", c.line, c.width, c.indent, got, c.want)
		}
	}
}

// Styles do not count towards the width, and no word is cut.
func TestWrapLineIgnoresStylesAndKeepsWords(t *testing.T) {
	styled := "\x1b[1mIDEM001\x1b[0m idempotency key built from rand.Read (random per attempt); a redelivery computes a different key"
	got := WrapLine(styled, 30, 4)
	for _, l := range strings.Split(got, "\n") {
		if ansi.StringWidth(l) > 30 {
			t.Errorf("piece %q is wider than 30", l)
		}
	}
	if strings.Join(strings.Fields(ansi.Strip(got)), " ") != strings.Join(strings.Fields(ansi.Strip(styled)), " ") {
		t.Errorf("words changed:\n%s", got)
	}
}
