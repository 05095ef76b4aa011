package cmd

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/internal/ui"
)

// wrapHelp makes --help fit the terminal: cobra prints flag lines whole,
// and a terminal narrower than them breaks them mid-word. On a terminal
// (or with COLUMNS set) every line longer than the width is broken at
// spaces; a flag's description continues under its own column. Piped help
// without COLUMNS is left as cobra prints it.
func wrapHelp(root *cobra.Command, ios *iostreams.IOStreams) {
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		width := ios.Width()
		if width <= 0 {
			help(c, args)
			return
		}
		var buf bytes.Buffer
		c.SetOut(&buf)
		help(c, args)
		c.SetOut(nil)
		if c == root {
			c.SetOut(ios.Out)
		}
		_, _ = io.WriteString(ios.Out, wrapLines(buf.String(), width))
	})
}

// flagColumn matches a flag line of --help up to its description:
// "  -h, --help   " or "      --format FORMAT   ".
var flagColumn = regexp.MustCompile(`^ +(-\w, )?--[\w-]+( [A-Z=][\w=.:-]*)? {2,}`)

// wrapLines wraps each line of help text to width, continuing a flag's
// description under its column and any other line under its indentation.
func wrapLines(text string, width int) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		indent := ui.LeadingSpaces(l)
		if m := flagColumn.FindString(l); m != "" {
			indent = len(m)
		}
		lines[i] = ui.WrapLine(l, width, indent)
	}
	return strings.Join(lines, "\n")
}
