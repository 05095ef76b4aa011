package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// WrapLine breaks line at spaces so that no piece is wider than width
// terminal cells, and indents the pieces after the first by indent spaces.
// Words are never broken: one wider than the room left stays whole on a
// line of its own. Styles (ANSI sequences) count for nothing. width ≤ 0,
// or a line that fits, returns line unchanged.
func WrapLine(line string, width, indent int) string {
	if width <= 0 || ansi.StringWidth(line) <= width {
		return line
	}
	indent = min(indent, width/2) // room for words on every piece
	var b, cur strings.Builder
	curWidth, hasWord := 0, false
	for _, tok := range tokens(line) {
		w := ansi.StringWidth(tok)
		if tok[0] == ' ' {
			cur.WriteString(tok)
			curWidth += w
			continue
		}
		if hasWord && curWidth+w > width {
			b.WriteString(strings.TrimRight(cur.String(), " ") + "\n")
			cur.Reset()
			cur.WriteString(strings.Repeat(" ", indent))
			curWidth = indent
		}
		cur.WriteString(tok)
		curWidth += w
		hasWord = true
	}
	b.WriteString(strings.TrimRight(cur.String(), " "))
	return b.String()
}

// tokens splits s into runs of spaces and runs of anything else.
func tokens(s string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(s); i++ {
		if i == len(s) || (s[i] == ' ') != (s[start] == ' ') {
			out = append(out, s[start:i])
			start = i
		}
	}
	return out
}

// LeadingSpaces counts the spaces that start s.
func LeadingSpaces(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
