package filter

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/report"
)

func write(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

func finding(file string, line int, msg string) report.Finding {
	return report.Finding{Rule: "IDEM001", File: file, Line: line, Column: 2, Message: msg}
}

func TestNewFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	write(t, dir, "pay/pay.go", "package pay\n\nvar a = 1\n\nvar b = 2\n")
	run(t, dir, "git", "init", "-q")
	run(t, dir, "git", "add", ".")
	run(t, dir, "git", "commit", "-q", "-m", "base")
	// Line 5 changes, a line is inserted above it (old findings shift), and
	// an untracked file appears.
	write(t, dir, "pay/pay.go", "package pay\n\nvar a = 1\n\nvar b = 3\n")
	run(t, dir, "git", "commit", "-q", "-am", "change b")
	write(t, dir, "pay/pay.go", "package pay\n\n// new comment\nvar a = 1\n\nvar b = 3\n")
	write(t, dir, "pay/new.go", "package pay\n\nvar c = 4\n")

	fs := []report.Finding{finding("pay/pay.go", 4, "old a"), finding("pay/pay.go", 6, "changed b"), finding("pay/new.go", 3, "untracked"), finding("pay/pay.go", 3, "comment line")}
	got, err := NewFromRev(context.Background(), fs, dir, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range got {
		msgs = append(msgs, f.Message)
	}
	if strings.Join(msgs, ",") != "changed b,untracked,comment line" {
		t.Errorf("kept %v", msgs)
	}
	if _, err := NewFromRev(context.Background(), fs, dir, "nope"); err == nil || !strings.Contains(err.Error(), "not a revision") {
		t.Errorf("bad revision: %v", err)
	}
	if _, err := NewFromRev(context.Background(), fs, t.TempDir(), "HEAD"); err == nil || !strings.Contains(err.Error(), "git work tree") {
		t.Errorf("outside git: %v", err)
	}
}

func TestBaselineSurvivesLineShifts(t *testing.T) {
	dir := t.TempDir()
	src := "package pay\n\nfunc A() { key := now() }\n\nfunc B() { key := now() }\n"
	write(t, dir, "pay.go", src)
	accepted := []report.Finding{finding("pay.go", 3, "key from time.Now at pay.go:3"), finding("pay.go", 5, "key from time.Now at pay.go:5")}
	file := filepath.Join(dir, "baseline.json")
	if err := NewBaseline(accepted, dir).WriteFile(file); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBaseline(file)
	if err != nil {
		t.Fatal(err)
	}

	// Two lines inserted above the accepted findings, and two new findings
	// below: the accepted ones stay silent, the new ones are reported.
	write(t, dir, "pay.go", "package pay\n\nimport \"time\"\n\nfunc A() { key := now() }\n\nfunc B() { key := now() }\n\nfunc C() { key := now() }\n\nfunc D() { id := now() }\n")
	now := []report.Finding{
		finding("pay.go", 5, "key from time.Now at pay.go:5"),
		finding("pay.go", 7, "key from time.Now at pay.go:7"),
		finding("pay.go", 9, "key from time.Now at pay.go:9"),
		finding("pay.go", 11, "key from time.Now at pay.go:11"),
	}
	got := b.Filter(now, dir)
	if len(got) != 2 || got[0].Line != 9 || got[1].Line != 11 {
		t.Errorf("kept %+v, want lines 9 and 11", got)
	}
	if _, err := ReadBaseline(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "--write-baseline") {
		t.Errorf("missing baseline: %v", err)
	}
}

func TestParseUnifiedDiff(t *testing.T) {
	diff := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -3 +3 @@\n-a\n+b\n@@ -10,0 +11,2 @@\n+c\n+d\n@@ -20,2 +22,0 @@\n-e\n-f\ndiff --git a/gone.go b/gone.go\n--- a/gone.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
	c := parseUnifiedDiff([]byte(diff), "/r")
	for line, want := range map[int]bool{3: true, 11: true, 12: true, 13: false, 22: false, 4: false} {
		if got := c.Contains("/r/x.go", line); got != want {
			t.Errorf("line %d: %v", line, got)
		}
	}
	if _, ok := c["/r/gone.go"]; ok {
		t.Error("deleted file listed")
	}
}

func TestExclude(t *testing.T) {
	fs := []report.Finding{finding("gen/a.go", 1, "x"), finding("pay/a.go", 1, "y")}
	got := Exclude(fs, "/m/sub", "/m", func(rel string) bool { return strings.HasPrefix(rel, "sub/gen/") })
	if len(got) != 1 || got[0].File != "pay/a.go" {
		t.Errorf("kept %+v", got)
	}
}
