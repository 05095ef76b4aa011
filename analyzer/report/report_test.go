package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func sample() []Finding {
	return []Finding{
		{Rule: "IDEM001", File: "b/pay.go", Line: 9, Column: 2, Message: "second"},
		{Rule: "IDEM001", File: "a/pay.go", Line: 41, Column: 3, Message: "idempotency key built from uuid.NewString",
			Related: []Related{{File: "a/pay.go", Line: 30, Column: 9, Message: "uuid.NewString: random per attempt"},
				{File: "a/util.go", Line: 3, Column: 1, Message: "passed to helper"}}},
		{Rule: "IDEM001", File: "b/pay.go", Line: 9, Column: 2, Message: "second"},
	}
}

func TestSortDedup(t *testing.T) {
	fs := sample()
	Sort(fs)
	fs = Dedup(fs)
	if len(fs) != 2 || fs[0].File != "a/pay.go" || fs[1].File != "b/pay.go" {
		t.Fatalf("got %+v", fs)
	}
}

func TestWriteJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, Result{Findings: sample()[:1]}); err != nil {
		t.Fatal(err)
	}
	var doc map[string][]map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	f := doc["findings"][0]
	for _, k := range []string{"rule", "file", "line", "column", "message", "related"} {
		if _, ok := f[k]; !ok {
			t.Errorf("finding lacks %q: %s", k, buf.String())
		}
	}
	if rel, ok := f["related"].([]any); !ok || len(rel) != 0 {
		t.Errorf("related = %#v, want empty array", f["related"])
	}

	buf.Reset()
	if err := WriteJSON(&buf, Result{}); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(buf.String()) != "{\n  \"findings\": []\n}" {
		t.Errorf("empty doc = %q", buf.String())
	}
}

func TestWriteText(t *testing.T) {
	fs := sample()
	Sort(fs)
	fs = Dedup(fs)
	var buf bytes.Buffer
	if err := WriteText(&buf, Result{Findings: fs}, nil); err != nil {
		t.Fatal(err)
	}
	want := `a/pay.go
  41:3 IDEM001 idempotency key built from uuid.NewString
      • 30:9 uuid.NewString: random per attempt
      → a/util.go:3:1 passed to helper

b/pay.go
  9:2 IDEM001 second

✗ 2 findings in 2 files
`
	if buf.String() != want {
		t.Errorf("text =\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	_ = WriteText(&buf, Result{}, nil)
	if !strings.Contains(buf.String(), "no findings") {
		t.Errorf("empty text = %q", buf.String())
	}
}

// TestFormatsListErrors: every format prints the findings of a partial run
// and lists each package that was not analyzed once; text never says
// "no findings" about it.
func TestFormatsListErrors(t *testing.T) {
	r := Result{Findings: sample()[:1], Errors: []PackageError{{Package: "example.com/m/bad", Message: "bad/bad.go:3:23: cannot use x"}}}
	for _, name := range FormatNames() {
		f, _ := Lookup(name)
		var buf bytes.Buffer
		if err := f.Write(&buf, r, Env{}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := buf.String()
		if n := strings.Count(out, "bad/bad.go:3:23: cannot use x"); n != 1 {
			t.Errorf("%s lists the error %d times:\n%s", name, n, out)
		}
		if !strings.Contains(out, r.Findings[0].Message) {
			t.Errorf("%s lacks the finding:\n%s", name, out)
		}
	}
	var buf bytes.Buffer
	_ = WriteText(&buf, Result{Errors: r.Errors}, nil)
	if strings.Contains(buf.String(), PassMark) || !strings.Contains(buf.String(), "1 package not analyzed") {
		t.Errorf("text of a partial run without findings:\n%s", buf.String())
	}
	buf.Reset()
	_ = WriteSARIF(&buf, r, nil, Tool{Name: "idemcheck"})
	if !strings.Contains(buf.String(), `"executionSuccessful": false`) {
		t.Errorf("SARIF does not mark the run unsuccessful:\n%s", buf.String())
	}
}

// TestNotesAreNotFindings: a note (an analysis cut short) is shown in every
// format, but the text summary neither counts it as a finding nor shows the
// pass mark.
func TestNotesAreNotFindings(t *testing.T) {
	note := Finding{Rule: "IDEM001", File: "chain/chain.go", Line: 1, Column: 1, Message: "the analysis of this package was cut short (…); its findings may be incomplete"}
	r := Result{Findings: []Finding{}, Notes: []Finding{note}}
	var text strings.Builder
	if err := WriteText(&text, r, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "note: chain/chain.go:1:1 IDEM001 the analysis") || strings.Contains(text.String(), PassMark) || !strings.Contains(text.String(), "no findings, but 1 note says the analysis was cut short") {
		t.Errorf("text:\n%s", text.String())
	}
	var js strings.Builder
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var doc JSONDocument
	if err := json.Unmarshal([]byte(js.String()), &doc); err != nil || len(doc.Findings) != 0 || len(doc.Notes) != 1 || doc.Notes[0].Rule != "IDEM001" {
		t.Errorf("json (%v):\n%s", err, js.String())
	}
	var gh strings.Builder
	if err := WriteGitHub(&gh, r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(gh.String(), "::notice file=chain/chain.go,line=1,col=1,title=IDEM001%3A analysis cut short::") {
		t.Errorf("github:\n%s", gh.String())
	}
	// Without notes, the JSON shape is unchanged.
	js.Reset()
	if err := WriteJSON(&js, Result{Findings: []Finding{}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(js.String(), "notes") {
		t.Errorf("notes key without notes:\n%s", js.String())
	}
}

// On a narrow terminal a finding's message wraps at spaces and continues
// under its own start; without a width the lines stay whole.
func TestWriteTextWraps(t *testing.T) {
	f := Finding{Rule: "IDEM001", File: "pay.go", Line: 46, Column: 16,
		Message: "idempotency key built from rand.Read (random per attempt); a redelivery computes a different key",
		Related: []Related{{File: "pay.go", Line: 32, Column: 11, Message: "rand.Read: random per attempt, drawn inside the attempt"}}}
	var buf bytes.Buffer
	if err := WriteTextWidth(&buf, Result{Findings: []Finding{f}}, nil, 40); err != nil {
		t.Fatal(err)
	}
	want := `pay.go
  46:16 IDEM001 idempotency key built
                from rand.Read (random
                per attempt); a
                redelivery computes a
                different key
      • 32:11 rand.Read: random per
              attempt, drawn inside the
              attempt

✗ 1 finding in 1 file
`
	if buf.String() != want {
		t.Errorf("wrapped to 40:\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	_ = WriteTextWidth(&buf, Result{Findings: []Finding{f}}, nil, 0)
	if !strings.Contains(buf.String(), "  46:16 IDEM001 "+f.Message+"\n") {
		t.Errorf("not wrapped without a width:\n%s", buf.String())
	}
}
