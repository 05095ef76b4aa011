// Package docexample reads the shell examples out of idemcheck's Markdown
// documentation, so that the script tests can run every command the docs
// show and compare its output with the output the docs show.
//
// The conventions, which docs/CONTRIBUTING.md states for writers:
//   - every line of a ```sh block is a command, run from the repository root
//     (a trailing \ continues it on the next line; a # outside quotes starts a
//     comment);
//   - a ```text or ```json block that directly follows a ```sh block is the
//     standard output of that block's last command;
//   - in shown output, a line that is only … stands for any number of lines,
//     a … inside a line for any text, and runs of spaces compare equal to one
//     space.
package docexample

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// Command is one shell command shown in a document.
type Command struct {
	File   string // the document, as given to Parse
	Line   int    // 1-based line of the command's first line
	Text   string // the command without comment, continuation lines joined
	Output string // the output the document shows for it; "" when it shows none
	HasOut bool   // whether the document shows output for it
}

// Parse returns the commands of a Markdown document's ```sh blocks, in order.
func Parse(file string, data []byte) ([]Command, error) {
	var (
		cmds    []Command
		inBlock bool   // inside any fenced block
		lang    string // the open block's language
		pending string // a command continued with a trailing backslash
		start   int    // line of pending's first line
		block   []string
		blockAt int
		before  int // len(cmds) when the open block started
		// lastSh is the index one past the last command of the most recent
		// ```sh block while only blank lines followed it; 0 otherwise.
		lastSh int
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fence, isFence := strings.CutPrefix(strings.TrimSpace(line), "```")
		switch {
		case !inBlock && isFence:
			inBlock, lang, block, blockAt, before = true, strings.TrimSpace(fence), nil, n, len(cmds)
			if lang != "text" && lang != "json" {
				lastSh = 0
			}
		case inBlock && isFence && fence == "":
			inBlock = false
			switch {
			case lang == "sh":
				if pending != "" {
					return nil, fmt.Errorf("%s:%d: the last command of the block ends in a backslash", file, start)
				}
				if len(cmds) > before {
					lastSh = len(cmds)
				}
			case (lang == "text" || lang == "json") && lastSh > 0 && cmds[lastSh-1].File == file:
				c := &cmds[lastSh-1]
				c.Output, c.HasOut = strings.Join(block, "\n"), true
				lastSh = 0
			default:
				lastSh = 0
			}
		case inBlock && lang == "sh":
			text := line
			if pending != "" {
				text = pending + " " + strings.TrimSpace(line)
			} else {
				start = n
			}
			if body, ok := strings.CutSuffix(strings.TrimRight(text, " \t"), `\`); ok {
				pending = strings.TrimSpace(body)
				continue
			}
			pending = ""
			if cmd := Normalize(StripComment(text)); cmd != "" {
				cmds = append(cmds, Command{File: file, Line: start, Text: cmd})
			}
		case inBlock:
			block = append(block, line)
		case strings.TrimSpace(line) != "":
			lastSh = 0
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if inBlock {
		return nil, fmt.Errorf("%s:%d: code block never closed", file, blockAt)
	}
	return cmds, nil
}

// StripComment removes a shell comment: a # at the start of the line or after
// a blank, outside single and double quotes.
func StripComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
	}
	return s
}

// Normalize trims a command and collapses runs of blanks to one space, so
// that a script names a command regardless of how the document aligned it.
func Normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// Match reports whether got, a command's output, is what want, the output a
// document shows, describes (see the package comment for … and spaces).
func Match(want, got string) bool {
	w, g := lines(want), lines(got)
	pats := make([]*regexp.Regexp, len(w))
	for i, l := range w {
		if l != "…" {
			pats[i] = linePattern(l)
		}
	}
	// memo[i][j]: whether w[i:] matches g[j:], computed lazily.
	memo := make(map[[2]int]bool)
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if r, ok := memo[[2]int{i, j}]; ok {
			return r
		}
		var r bool
		switch {
		case i == len(w):
			r = j == len(g)
		case pats[i] == nil: // a … line: skip any number of lines
			for k := j; k <= len(g) && !r; k++ {
				r = match(i+1, k)
			}
		default:
			r = j < len(g) && pats[i].MatchString(g[j]) && match(i+1, j+1)
		}
		memo[[2]int{i, j}] = r
		return r
	}
	return match(0, 0)
}

// lines splits text into lines with blanks collapsed, without trailing blank
// lines.
func lines(s string) []string {
	ls := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range ls {
		ls[i] = Normalize(l)
	}
	for len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

func linePattern(l string) *regexp.Regexp {
	parts := strings.Split(l, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}
