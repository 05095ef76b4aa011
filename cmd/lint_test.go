package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/driver"
	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/internal/testenv"
)

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.22\n"
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const payGo = `package pay

import (
	"fmt"
	"net/http"
	"time"
)

func Charge(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", orderID, time.Now().Unix()))
}

func Stable(req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", "order:"+orderID)
}
`

const payTestGo = `package pay

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"testing"
)

func TestCharge(t *testing.T) {
	b := make([]byte, 8)
	rand.Read(b)
	req, _ := http.NewRequest("POST", "/", nil)
	req.Header.Set("Idempotency-Key", hex.EncodeToString(b))
}
`

// tool is the vet tool lint runs: idemcheck itself, shared with the other
// test packages so that go vet's cache serves them all.
func tool(t *testing.T) string { return testenv.Idemcheck(t) }

func runLint(t *testing.T, opts *LintOptions) (string, string, error) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	opts.IO = ios
	opts.Tool = tool(t)
	if opts.Format == "" {
		opts.Format = "text"
	}
	err := lintRun(opts)
	return out.String(), errOut.String(), err
}

func TestLintFindingsText(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dir := writeModule(t, map[string]string{"pay/pay.go": payGo, "pay/pay_test.go": payTestGo})
	out, _, err := runLint(t, &LintOptions{Dir: dir})
	if exitCode(err) != ExitFinding {
		t.Fatalf("exit = %d (%v), want 1\n%s", exitCode(err), err, out)
	}
	for _, want := range []string{
		"pay/pay.go\n",
		"10:16 IDEM001 idempotency key built from time.Now (clock reading, differs per attempt); a redelivery computes a different key",
		"time.Now: clock reading, differs per attempt",
		"1 finding in 1 file",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "pay_test.go") {
		t.Errorf("test file reported without --tests:\n%s", out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("styled output on a non-terminal:\n%q", out)
	}
}

func TestLintJSONWithTests(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dir := writeModule(t, map[string]string{"pay/pay.go": payGo, "pay/pay_test.go": payTestGo})
	out, _, err := runLint(t, &LintOptions{Dir: dir, Format: "json", Tests: true})
	if exitCode(err) != ExitFinding {
		t.Fatalf("exit = %d (%v), want 1", exitCode(err), err)
	}
	var doc struct {
		Findings []struct {
			Rule, File, Message string
			Line, Column        int
			Related             []struct {
				File, Message string
				Line, Column  int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if len(doc.Findings) != 2 {
		t.Fatalf("got %d findings, want 2:\n%s", len(doc.Findings), out)
	}
	f := doc.Findings[0]
	if f.Rule != "IDEM001" || f.File != "pay/pay.go" || f.Line != 10 || f.Column != 16 || len(f.Related) == 0 || f.Related[0].File != "pay/pay.go" {
		t.Errorf("first finding = %+v", f)
	}
	if g := doc.Findings[1]; g.File != "pay/pay_test.go" || !strings.Contains(g.Message, "rand.Read") {
		t.Errorf("second finding = %+v", g)
	}
}

func TestLintClean(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dir := writeModule(t, map[string]string{"ok/ok.go": "package ok\n\nimport \"net/http\"\n\nfunc F(r *http.Request, id string) { r.Header.Set(\"Idempotency-Key\", \"k:\"+id) }\n"})
	out, _, err := runLint(t, &LintOptions{Dir: dir, Format: "json"})
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	if strings.TrimSpace(out) != "{\n  \"findings\": []\n}" {
		t.Errorf("out = %q", out)
	}
}

// libGo has a finding in a package that appGo imports, with a helper
// whose fresh result reaches app only through a fact.
const libGo = `package lib

import (
	"fmt"
	"time"
)

type Req struct{ IdempotencyKey string }

func Fresh() string { return fmt.Sprint(time.Now().UnixNano()) }

func Charge(order string) Req { return Req{IdempotencyKey: order + Fresh()} }
`

const appGo = `package app

import "example.com/m/lib"

func Pay() lib.Req { return lib.Req{IdempotencyKey: "pay-" + lib.Fresh()} }
`

// TestLintVerdictIndependentOfCache lints a package first as a dependency
// and then as a root (and the reverse) in one build cache, and compares
// with a cold one: go vet caches a dependency-only run under the same key
// as a root run, which once made the second run print "no findings".
//
// Each order runs on its own copy of the module. go keys a package's cache
// entries by its directory, so a fresh copy is a cold cache for its
// packages (the standard library's entries, warm or not, are the same for
// both), and each order's first run is the cold reference for the other
// order's second run.
func TestLintVerdictIndependentOfCache(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	lintIn := func(dir, pattern string) string {
		out, _, err := runLint(t, &LintOptions{Dir: dir, Format: "json", Patterns: []string{pattern}})
		if exitCode(err) != ExitFinding {
			t.Errorf("lint %s: exit %d (%v)\n%s", pattern, exitCode(err), err, out)
		}
		return out
	}
	orders := [][]string{{"./app", "./lib"}, {"./lib", "./app"}}
	outs := make([][]string, len(orders))
	var wg sync.WaitGroup
	for i, order := range orders {
		dir := writeModule(t, map[string]string{"lib/lib.go": libGo, "app/app.go": appGo})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, p := range order {
				outs[i] = append(outs[i], lintIn(dir, p))
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	cold := map[string]string{"./app": outs[0][0], "./lib": outs[1][0]}
	// Each pattern's findings are in its own files (a related location may
	// point into the other package: the source of app's key is in lib).
	findingFiles := func(out string) string {
		var doc struct{ Findings []struct{ File string } }
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("bad JSON (%v): %s", err, out)
		}
		var files []string
		for _, f := range doc.Findings {
			files = append(files, f.File)
		}
		return strings.Join(files, " ")
	}
	if findingFiles(cold["./lib"]) != "lib/lib.go" || findingFiles(cold["./app"]) != "app/app.go" {
		t.Fatalf("cold runs report the wrong packages:\n./lib: %s\n./app: %s", cold["./lib"], cold["./app"])
	}
	for i, order := range orders {
		if got, want := outs[i][1], cold[order[1]]; got != want {
			t.Errorf("lint %s after lint %s differs from a cold cache:\n%s\nwant:\n%s", order[1], order[0], got, want)
		}
	}
}

// TestLintPartialLoad: packages that do not load or type-check are listed
// once, in every format, and the others' findings are still printed (exit
// 2). A test file importing a module go.mod lacks breaks nothing without
// --tests.
func TestLintPartialLoad(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	missingTest := "package pay\n\nimport (\n\t\"testing\"\n\n\t\"github.com/nobody/missing\"\n)\n\nfunc TestX(t *testing.T) { missing.Do() }\n"
	dir := writeModule(t, map[string]string{
		"pay/pay.go":          payGo,
		"pay/missing_test.go": missingTest,
		"bad/bad.go":          "package bad\n\nfunc F() int { return \"x\" }\n",
		"usesbad/u.go":        "package usesbad\n\nimport \"example.com/m/bad\"\n\nvar X = bad.F()\n",
		"gone/gone.go":        "package gone\n\nimport \"github.com/nobody/missing\"\n\nvar X = missing.Y\n",
	})

	out, _, err := runLint(t, &LintOptions{Dir: dir, Patterns: []string{"./pay"}})
	if exitCode(err) != ExitFinding || !strings.Contains(out, "pay/pay.go") {
		t.Errorf("a test file importing a missing module broke lint without --tests: exit %d\n%s", exitCode(err), out)
	}

	for _, format := range []string{"text", "json", "sarif", "github"} {
		t.Run(format, func(t *testing.T) {
			out, errOut, err := runLint(t, &LintOptions{Dir: dir, Format: format})
			if exitCode(err) != ExitUsage {
				t.Fatalf("exit = %d (%v), want 2\n%s", exitCode(err), err, out)
			}
			if !strings.Contains(out, "pay/pay.go") || !strings.Contains(out, "IDEM001") {
				t.Errorf("the finding in pay is missing:\n%s", out)
			}
			for _, want := range []string{`bad.go:3:23: cannot use \"x\"`, "no required module provides package github.com/nobody/missing", "example.com/m/usesbad"} {
				if format == "text" || format == "github" {
					want = strings.ReplaceAll(want, `\"`, `"`)
				}
				if n := strings.Count(out, want); n != 1 {
					t.Errorf("%q listed %d times, want once:\n%s", want, n, out)
				}
			}
			if format == "json" {
				var doc struct {
					Findings []any
					Errors   []struct{ Package, Message string }
				}
				if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Findings) != 1 || len(doc.Errors) < 2 {
					t.Errorf("json: %v %+v", err, doc)
				}
			}
			if errOut != "" {
				t.Errorf("stderr = %q", errOut)
			}
		})
	}
}

func TestLintExplainAndUsage(t *testing.T) {
	out, _, err := runLint(t, &LintOptions{Explain: "idem001"})
	if err != nil || !strings.HasPrefix(out, "IDEM001: per-attempt value in an idempotency key") || !strings.Contains(out, "Good") {
		t.Errorf("explain: err=%v out=%q", err, out)
	}
	out, _, err = runLint(t, &LintOptions{Explain: "config"})
	if err != nil || out != config.Reference {
		t.Errorf("explain config: err=%v out=%q", err, out)
	}
	_, _, err = runLint(t, &LintOptions{Explain: "IDEM999"})
	if exitCode(err) != ExitUsage || !strings.Contains(err.Error(), "unknown rule") {
		t.Errorf("unknown rule: %v", err)
	}
	_, _, err = runLint(t, &LintOptions{Format: "xml"})
	if exitCode(err) != ExitUsage || !strings.Contains(err.Error(), "--format") {
		t.Errorf("bad format: %v", err)
	}
}

func TestNewCmdLintFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *LintOptions
	c := NewCmdLint(ios, func(o *LintOptions) error { got = o; return nil })
	c.SetArgs([]string{"--format", "json", "--tests", "--tags", "integration", "./a/...", "./b"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Format != "json" || !got.Tests || got.Tags != "integration" || strings.Join(got.Patterns, " ") != "./a/... ./b" {
		t.Errorf("options = %+v", got)
	}
}

func TestLintTags(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	tagged := "//go:build integration\n\npackage pay\n\nimport (\n\t\"net/http\"\n\t\"time\"\n)\n\nfunc Tagged(r *http.Request) { r.Header.Set(\"Idempotency-Key\", time.Now().String()) }\n"
	dir := writeModule(t, map[string]string{"pay/pay.go": payGo, "pay/tagged.go": tagged})
	out, _, _ := runLint(t, &LintOptions{Dir: dir, Format: "json"})
	if strings.Contains(out, "tagged.go") {
		t.Errorf("tagged file analyzed without --tags:\n%s", out)
	}
	out, _, err := runLint(t, &LintOptions{Dir: dir, Format: "json", Tags: "integration"})
	if exitCode(err) != ExitFinding || !strings.Contains(out, "pay/tagged.go") {
		t.Errorf("--tags integration: exit %d, out:\n%s", exitCode(err), out)
	}
}

// TestLintMessages: outside a module, one line naming go.mod and what to
// do; a bad --analyzer-flag, one line without go vet's usage text.
func TestLintMessages(t *testing.T) {
	dir := t.TempDir()
	_, _, err := runLint(t, &LintOptions{Dir: dir})
	if exitCode(err) != ExitUsage || !strings.Contains(err.Error(), "no go.mod in "+dir) || !strings.Contains(err.Error(), "go mod init") {
		t.Errorf("outside a module: %v", err)
	}
	_, _, err = runLint(t, &LintOptions{Dir: dir, AnalyzerFlags: []string{"-IDEM001.keypatern=x"}})
	if exitCode(err) != ExitUsage || !strings.Contains(err.Error(), "did you mean -IDEM001.keypattern?") {
		t.Errorf("bad analyzer flag: %v", err)
	}
	// A bad value: one line naming the flag and the reason, before go vet
	// would print its usage text for every package.
	_, _, err = runLint(t, &LintOptions{Dir: dir, AnalyzerFlags: []string{"-IDEM001.keypattern=("}})
	if exitCode(err) != ExitUsage || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "-IDEM001.keypattern=(: error parsing regexp: missing closing )") {
		t.Errorf("bad analyzer flag value: %v", err)
	}
}

// TestLintProgress: on a terminal, stderr counts packages up to the total.
func TestLintProgress(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dir := writeModule(t, map[string]string{"lib/lib.go": libGo, "app/app.go": appGo})
	ios, _, _, errOut := iostreams.Test()
	ios.SetStderrTTY(true)
	opts := &LintOptions{IO: ios, Dir: dir, Format: "json", Tool: tool(t)}
	if err := lintRun(opts); exitCode(err) != ExitFinding {
		t.Fatalf("exit %d (%v)", exitCode(err), err)
	}
	// The phases in order, then the line cleared.
	got := errOut.String()
	want := []string{"listing packages…", "building dependencies… (then 2 packages to analyze)", "analyzing packages 1/2", "analyzing packages 2/2"}
	at := 0
	for _, w := range want {
		i := strings.Index(got[at:], "idemcheck: "+w)
		if i < 0 {
			t.Fatalf("progress lacks %q after offset %d: %q", w, at, got)
		}
		at += i
	}
	if !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("the progress line is not cleared at the end: %q", got)
	}
}

func TestLintProgressText(t *testing.T) {
	cases := []struct {
		p       driver.Progress
		elapsed time.Duration
		want    string
	}{
		{driver.Progress{Phase: driver.PhaseList}, 0, "listing packages…"},
		{driver.Progress{Phase: driver.PhaseBuild, Total: 1}, 0, "building dependencies… (then 1 package to analyze)"},
		{driver.Progress{Phase: driver.PhaseBuild, Total: 30}, 0, "building dependencies… (then 30 packages to analyze)"},
		{driver.Progress{Phase: driver.PhaseBuild, Total: 30}, 12500 * time.Millisecond, "building dependencies… 12s (then 30 packages to analyze)"},
		{driver.Progress{Phase: driver.PhaseAnalyze, Done: 3, Total: 30}, 5 * time.Second, "analyzing packages 3/30"},
	}
	for _, c := range cases {
		if got := progressText(c.p, c.elapsed); got != c.want {
			t.Errorf("progressText(%+v, %v) = %q, want %q", c.p, c.elapsed, got, c.want)
		}
	}
}

// TestLintNoteIsNotAFinding: a package whose analysis hits a bound (here
// the one left, IDEM001's rounds, lowered to 1) gets a note in the output
// naming the function and the flag, with exit 0 and no pass mark: there
// is no finding, and no clean verdict either.
func TestLintNoteIsNotAFinding(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	src := "package chain\n\nimport (\n\t\"net/http\"\n\t\"time\"\n)\n\n" +
		"func a(req *http.Request) { b(req, time.Now().String()) }\n\n" +
		"func b(req *http.Request, k string) { req.Header.Set(\"X-Other\", k) }\n"
	dir := writeModule(t, map[string]string{"chain/chain.go": src})
	flags := []string{"-IDEM001.maxrounds=1"}
	out, _, err := runLint(t, &LintOptions{Dir: dir, AnalyzerFlags: flags})
	if err != nil || !strings.Contains(out, "note: chain/chain.go:1:1 IDEM001 the analysis of this package was cut short") ||
		!strings.Contains(out, "-IDEM001.maxrounds=N") || strings.Contains(out, "✓") {
		t.Errorf("text: %v\n%s", err, out)
	}
	out, _, err = runLint(t, &LintOptions{Dir: dir, Format: "json", AnalyzerFlags: flags})
	var doc struct{ Findings, Notes []struct{ Rule, File string } }
	if jerr := json.Unmarshal([]byte(out), &doc); err != nil || jerr != nil || len(doc.Findings) != 0 || len(doc.Notes) != 1 || doc.Notes[0].Rule != "IDEM001" {
		t.Errorf("json: %v %v\n%s", err, jerr, out)
	}
}

// TestLintPatternTypos: a mistyped directory or a file is one line, exit 2,
// before go vet runs; an import path no module provides gets advice that
// fits a linter, not go's "go get".
func TestLintPatternTypos(t *testing.T) {
	dir := writeModule(t, map[string]string{"pay/pay.go": "package pay\n"})
	for _, p := range []string{"./pya/...", "./pya", "./pay/pay.go"} {
		_, _, err := runLint(t, &LintOptions{Dir: dir, Patterns: []string{p}})
		if exitCode(err) != ExitUsage || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), p) {
			t.Errorf("lint %s: exit %d, %v", p, exitCode(err), err)
		}
	}
	// Without ./, a file or directory here would be read as an import path
	// (cmd/... as the Go toolchain's commands): one line saying how to
	// write it. A dash is a flag after the patterns (or after --).
	writeFileAt(t, filepath.Join(dir, "README.md"), "# pay\n")
	for p, want := range map[string]string{
		"README.md": "README.md is a file",
		"pay":       "write ./pay",
		"pay/...":   "write ./pay/...",
		"--format":  "argument 1 starts with a dash",
	} {
		_, _, err := runLint(t, &LintOptions{Dir: dir, Patterns: []string{p}})
		if exitCode(err) != ExitUsage || err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), want) {
			t.Errorf("lint %s: exit %d, %v; want one line with %q", p, exitCode(err), err, want)
		}
	}
	if got := plainPackageError("no required module provides package x/y; to add it:\n\tgo get x/y"); strings.Contains(got, "go get") {
		t.Errorf("plainPackageError kept go's advice: %q", got)
	}
}

// TestLintNothingToAnalyze: patterns that match no package, or only test
// files without --tests, are a one-line usage error in every format, never
// "no findings" (and --write-baseline writes nothing).
func TestLintNothingToAnalyze(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"pay/pay.go":       "package pay\n",
		"docs/README.md":   "# docs\n",
		"only/x_test.go":   "package only\n",
		"testdata/x/x.txt": "not go\n",
	})
	baseline := filepath.Join(dir, "baseline.json")
	for _, tc := range []struct {
		opts LintOptions
		want string
	}{
		{LintOptions{Patterns: []string{"./docs/..."}}, "./docs/... matched no Go packages"},
		{LintOptions{Patterns: []string{"./testdata/..."}, Format: "json"}, "./testdata/... matched no Go packages"},
		{LintOptions{Patterns: []string{"./docs/..."}, Format: "sarif"}, "./docs/... matched no Go packages"},
		{LintOptions{Patterns: []string{"./docs/..."}, Baseline: baseline, WriteBaseline: true}, "./docs/... matched no Go packages"},
		{LintOptions{Patterns: []string{"./only"}}, "./only matched only _test.go files: add --tests"},
	} {
		opts := tc.opts
		opts.Dir = dir
		out, _, err := runLint(t, &opts)
		if exitCode(err) != ExitUsage || err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tc.want) || out != "" {
			t.Errorf("lint %v --format %q: exit %d, %v, out %q; want one line with %q", opts.Patterns, opts.Format, exitCode(err), err, out, tc.want)
		}
	}
	if _, err := os.Stat(baseline); err == nil {
		t.Error("--write-baseline wrote a baseline of nothing")
	}
}
