package docexample

import (
	"slices"
	"testing"
)

const doc = "# Title\n\n" +
	"```sh\n" +
	"export K=v   # a comment\n" +
	"idemcheck derive --tenant acme \\\n" +
	"    --set a='x # not a comment'\n" +
	"```\n" +
	"\n" +
	"```text\n" +
	"key: …\n" +
	"```\n" +
	"\n" +
	"```sh\n" +
	"idemcheck lint ./...\n" +
	"```\n" +
	"Some prose breaks the link to the next block.\n" +
	"```text\n" +
	"not output\n" +
	"```\n" +
	"```shell\n" +
	"msg=$(cat)\n" +
	"```\n"

func TestParse(t *testing.T) {
	cmds, err := Parse("doc.md", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []Command{
		{File: "doc.md", Line: 4, Text: "export K=v"},
		{File: "doc.md", Line: 5, Text: "idemcheck derive --tenant acme --set a='x # not a comment'", Output: "key: …", HasOut: true},
		{File: "doc.md", Line: 14, Text: "idemcheck lint ./..."},
	}
	if !slices.Equal(cmds, want) {
		t.Errorf("Parse =\n%+v\nwant\n%+v", cmds, want)
	}
}

func TestParseErrors(t *testing.T) {
	for name, in := range map[string]string{
		"unclosed":    "```sh\nidemcheck lint\n",
		"trailing \\": "```sh\nidemcheck lint \\\n```\n",
	} {
		if _, err := Parse("doc.md", []byte(in)); err == nil {
			t.Errorf("%s: Parse succeeded", name)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb\n\n", true},
		{"a   b", "a b", true},        // blank runs
		{"key …", "key 0274ab", true}, // in-line wildcard
		{"attempt 1 …ms, 0 writes", "attempt 1  203ms, 0 writes", true},
		{"…\nround 3\n…\nPASS", "head\nround 3\nx\ny\nPASS", true},
		{"…\nround 3\n…", "round 3", true}, // … matches no line too
		{"a\nb", "a\nb\nc", false},         // extra output
		{"a\nc", "a\nb\nc", false},         // a line left out without …
		{"key 02…", "key 0374", false},
		{"a.b", "axb", false}, // no regexp leaks
	} {
		if got := Match(c.want, c.got); got != c.ok {
			t.Errorf("Match(%q, %q) = %v, want %v", c.want, c.got, got, c.ok)
		}
	}
}

func TestStripComment(t *testing.T) {
	for in, want := range map[string]string{
		"a # c":        "a ",
		"# c":          "",
		"a#b":          "a#b",
		`a "# x" # c`:  `a "# x" `,
		`a '# x'`:      `a '# x'`,
		`a \# b`:       `a \# b`,
		`x=$(cmd) # y`: `x=$(cmd) `,
	} {
		if got := StripComment(in); got != want {
			t.Errorf("StripComment(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestScriptCommands(t *testing.T) {
	script := []byte("# comment\n" +
		"doc 'export K=v'\n" +
		"! doc 'idemcheck normcheck --type phone ''(11) 98765-4321'''\n" +
		"[short] skip\n" +
		"[!short] doc -exit=2 'idemcheck   lint --bogus'\n" +
		"exec echo doc\n" +
		"-- file.txt --\n" +
		"doc 'not a command: file content'\n")
	want := []string{
		"export K=v",
		"idemcheck normcheck --type phone '(11) 98765-4321'",
		"idemcheck lint --bogus",
	}
	if got := ScriptCommands(script); !slices.Equal(got, want) {
		t.Errorf("ScriptCommands = %q, want %q", got, want)
	}
}
