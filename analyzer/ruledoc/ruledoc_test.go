package ruledoc

import (
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
