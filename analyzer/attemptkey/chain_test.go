package attemptkey_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
)

// writeChain writes a package in which a fresh key travels through n
// helpers: down a chain of calls that pass it on to the one that sets the
// header (sink chain), and up a chain of helpers that return it (result
// chain). It returns the GOPATH.
func writeChain(t testing.TB, n int) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "src", "chain")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("package chain\n\nimport (\n\t\"net/http\"\n\t\"time\"\n)\n\n")
	b.WriteString("type Req struct{ IdempotencyKey string }\n\nvar _ http.Header\n\n")
	b.WriteString("func downStart(req *http.Request) { down0(req, time.Now().String()) }\n")
	b.WriteString("func upStart(req *http.Request) { req.Header.Set(\"Idempotency-Key\", up0()) }\n")
	b.WriteString("func throughStart() { send(through0(time.Now().String())) }\n")
	b.WriteString("func namedStart(req *http.Request) { named0(req, time.Now().String()) }\n")
	b.WriteString("func send(r Req) { _ = r }\n\n")
	only := os.Getenv("CHAIN_ONLY")
	for i := 0; i < n; i++ {
		if i == n-1 {
			fmt.Fprintf(&b, "func down%d(req *http.Request, k string) { req.Header.Set(\"Idempotency-Key\", k) }\n", i)
			fmt.Fprintf(&b, "func up%d() string { return time.Now().String() }\n", i)
			fmt.Fprintf(&b, "func through%d(k string) Req { return Req{IdempotencyKey: k} }\n", i)
			fmt.Fprintf(&b, "func named%d(req *http.Request, idempotencyKey string) { req.Header.Set(\"Idempotency-Key\", idempotencyKey) }\n", i)
			continue
		}
		fmt.Fprintf(&b, "func down%d(req *http.Request, k string) { down%d(req, k+\"-\") }\n", i, i+1)
		fmt.Fprintf(&b, "func up%d() string { return \"p\" + up%d() }\n", i, i+1)
		fmt.Fprintf(&b, "func through%d(k string) Req { r := through%d(k); return r }\n", i, i+1)
		fmt.Fprintf(&b, "func named%d(req *http.Request, idempotencyKey string) { named%d(req, idempotencyKey) }\n", i, i+1)
	}
	src := b.String()
	if only != "" {
		var keep []string
		for _, line := range strings.Split(src, "\n") {
			if !strings.HasPrefix(line, "func ") || strings.HasPrefix(line, "func "+only) || strings.HasPrefix(line, "func send") {
				keep = append(keep, line)
			}
		}
		src = strings.Join(keep, "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "chain.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// loadChain loads the chain package.
func loadChain(t testing.TB, gopath string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadSyntax,
		Dir:  filepath.Join(gopath, "src", "chain"),
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOPROXY=off"),
	}
	loaded, err := packages.Load(cfg, "chain")
	if err != nil || packages.PrintErrors(loaded) > 0 {
		t.Fatalf("load chain: %v", err)
	}
	return loaded
}

// analyzeChain runs IDEM001 on the loaded chain package and returns its
// diagnostics.
func analyzeChain(t testing.TB, loaded []*packages.Package) []analysis.Diagnostic {
	t.Helper()
	g, err := checker.Analyze([]*analysis.Analyzer{attemptkey.Analyzer}, loaded, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []analysis.Diagnostic
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatal(act.Err)
		}
		out = append(out, act.Diagnostics...)
	}
	return out
}

// TestChain: a key passed through 300 helpers is still found, both ways.
func TestChain(t *testing.T) {
	diags := analyzeChain(t, loadChain(t, writeChain(t, 300)))
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Message)
	}
	if len(diags) != 4 {
		t.Fatalf("want 4 findings (down, up, through and named chain), got %d:\n%s", len(diags), strings.Join(msgs, "\n"))
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkChain measures the cost along chains of helpers; the goal is
// near-linear growth (5,000 helpers in well under 10 s).
func BenchmarkChain(b *testing.B) {
	for _, n := range []int{1600, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			loaded := loadChain(b, writeChain(b, n))
			// CPU seconds per run, besides wall time: the machine the
			// benchmark runs on is shared.
			start := cpuTime()
			defer func() { b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op") }()
			for b.Loop() {
				if d := analyzeChain(b, loaded); len(d) != 4 {
					b.Fatalf("%d findings, want 4", len(d))
				}
			}
		})
	}
}

// TestNoCapOnValues: 70 sources reaching one location are all kept
// (issue 18: no per-location value set is capped), so there is no note.
func TestNoCapOnValues(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "src", "chain")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("package chain\n\nimport \"time\"\n\nfunc Many() []string {\n\tvar ks []string\n")
	for i := 0; i < 70; i++ {
		b.WriteString("\tks = append(ks, time.Now().String())\n")
	}
	b.WriteString("\treturn ks\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "chain.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := analyzeChain(t, loadChain(t, root)); len(d) != 0 {
		t.Fatalf("want no diagnostic, got %v", d)
	}
}

// TestCapSaysSo: the one bound left, the rounds of the fixed point, names
// the function still changing and the flag that raises it.
func TestCapSaysSo(t *testing.T) {
	f := attemptkey.Analyzer.Flags.Lookup("maxrounds")
	old := f.Value.String()
	if err := f.Value.Set("1"); err != nil {
		t.Fatal(err)
	}
	defer f.Value.Set(old)
	var notes []string
	for _, d := range analyzeChain(t, loadChain(t, writeChain(t, 3))) {
		if strings.Contains(d.Message, "cut short") {
			notes = append(notes, d.Message)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], " in chain.") || !strings.Contains(notes[0], "-IDEM001.maxrounds=N") {
		t.Fatalf("want one note naming the function and the flag, got %q", notes)
	}
}
