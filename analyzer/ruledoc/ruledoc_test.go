package ruledoc

import (
	"reflect"
	"strings"
	"testing"
)

func TestRule(t *testing.T) {
	r := Rule{ID: "IDEM900", Title: "a title", Why: "because", Fix: "do this", Bad: "bad()", Good: "good()"}
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := "IDEM900: a title\n\nWhy\n    because\n\nFix\n    do this\n\nBad\n    bad()\n\nGood\n    good()\n"
	if b.String() != want {
		t.Errorf("Write =\n%q\nwant\n%q", b.String(), want)
	}
	md := r.Markdown()
	for _, s := range []string{"### IDEM900 — a title", "```go\nbad()\n```", "```go\ngood()\n```"} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md)
		}
	}
	if r.Summary() != "IDEM900 a title" {
		t.Errorf("Summary = %q", r.Summary())
	}
}

const sampleDocGo = `// Package sample defines the analyzer of rule IDEM900.
//
// # Analyzer IDEM900
//
// IDEM900: a sample rule
//
// Why it matters,
// over two lines.
//
// # Fix
//
// Do this instead.
//
// # Bad
//
//	func bad() {
//		draw()
//	}
//
// # Good
//
//	func good() {}
//
// # How it works
//
// Not part of the rule.
package sample
`

func TestParse(t *testing.T) {
	r, err := Parse(sampleDocGo)
	if err != nil {
		t.Fatal(err)
	}
	want := Rule{ID: "IDEM900", Title: "a sample rule", Why: "Why it matters,\nover two lines.", Fix: "Do this instead.",
		Bad: "func bad() {\n\tdraw()\n}", Good: "func good() {}"}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("Parse =\n%#v\nwant\n%#v", r, want)
	}
	if r.URL() != DocsURL+"#idem900" || !strings.HasPrefix(r.Doc(), "a sample rule\n\nWhy") {
		t.Errorf("URL = %q, Doc = %q", r.URL(), r.Doc())
	}
}

func TestParseErrors(t *testing.T) {
	for name, src := range map[string]string{
		"no comment":   "package sample\n",
		"no analyzer":  "// Package sample.\npackage sample\n",
		"bad title":    strings.Replace(sampleDocGo, "// IDEM900: a sample rule", "// a sample rule", 1),
		"missing Good": strings.Replace(sampleDocGo, "// # Good", "// # Other", 1),
	} {
		if _, err := Parse(src); err == nil {
			t.Errorf("%s: Parse succeeded", name)
		}
	}
}

// TestParseLanguages: Python and TypeScript examples are read from their
// own sections, shown after Go's, and need both a Bad and a Good.
func TestParseLanguages(t *testing.T) {
	doc := strings.Replace(sampleDocGo, "// # How it works", "// # Bad (Python)\n//\n//\tkey = uuid4()\n//\n// # Good (Python)\n//\n//\tkey = derive(intent)\n//\n// # How it works", 1)
	r, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []Example{{Lang: "python", Bad: "key = uuid4()", Good: "key = derive(intent)"}}
	if !reflect.DeepEqual(r.Examples, want) {
		t.Fatalf("Examples = %#v, want %#v", r.Examples, want)
	}
	secs := r.Sections()
	if last := secs[len(secs)-1]; last.Name != "Good (Python)" || last.Lang != "python" || !last.Code {
		t.Errorf("last section = %#v", last)
	}
	if md := r.Markdown(); !strings.Contains(md, "Bad (Python):\n\n```python\nkey = uuid4()\n```") {
		t.Errorf("Markdown lacks the Python example:\n%s", md)
	}
	half := strings.Replace(doc, "// # Good (Python)", "// # Other", 1)
	if _, err := Parse(half); err == nil || !strings.Contains(err.Error(), "both a Bad and a Good") {
		t.Errorf("Parse without Good (Python): err = %v", err)
	}
}
