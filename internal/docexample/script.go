package docexample

import (
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// ScriptCommands returns the document commands a testscript file runs: the
// argument of every `doc` line, as the doc command itself reads it (words
// joined by one space, single quotes as testscript parses them).
func ScriptCommands(script []byte) []string {
	var cmds []string
	for _, line := range strings.Split(string(txtar.Parse(script).Comment), "\n") {
		words := scriptWords(line)
		// Conditions ([short], [!linux]) and the ! and ? prefixes come first.
		for len(words) > 0 && (strings.HasPrefix(words[0], "[") || words[0] == "!" || words[0] == "?") {
			words = words[1:]
		}
		if len(words) < 2 || words[0] != "doc" {
			continue
		}
		words = words[1:]
		if strings.HasPrefix(words[0], "-exit=") {
			words = words[1:]
		}
		cmds = append(cmds, Normalize(strings.Join(words, " ")))
	}
	return cmds
}

// scriptWords splits a testscript line the way testscript does (” inside
// quotes is one quote, # outside quotes starts a comment), without expanding
// variables: the doc command's words are always quoted when they hold a $.
func scriptWords(line string) []string {
	var (
		words  []string
		word   strings.Builder
		inWord bool
		quoted bool
	)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'' && i+1 < len(line) && line[i+1] == '\'':
			word.WriteByte('\'')
			i++
		case c == '\'':
			quoted, inWord = !quoted, true
		case !quoted && (c == ' ' || c == '\t' || c == '\r' || c == '#'):
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
			if c == '#' {
				return words
			}
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}
