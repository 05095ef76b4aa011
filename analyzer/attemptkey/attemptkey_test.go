package attemptkey_test

import (
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
)

// TestAnalyzer runs every testdata package in one load, because loading
// type-checks the standard library from source, which costs far more than
// analyzing: the rule's own packages, facts included; the shapes
// and the labelled corpus (corpus_test.go), diagnostics only; then the
// checks that read a whole run's output, on the same packages.
func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(diagnosticsOnlyIn{t, []string{"shapes/", "corpus/"}}, analysistest.TestData(), attemptkey.Analyzer,
		"sources", "sinks", "traps", "closures", "outparams", "llm", "transport", "crosspkg", "directives", "handlers", "misc",
		"shapes/...", "corpus/...")
	var loaded []*packages.Package
	for _, r := range results {
		loaded = append(loaded, r.Action.Package)
	}
	if len(loaded) == 0 {
		t.Fatal("no testdata package loaded")
	}
	out := render(t, loaded)
	t.Run("Deterministic", func(t *testing.T) { testDeterministic(t, loaded, out) })
	t.Run("ReportedWhereTheKeyLeaves", func(t *testing.T) { testReportedWhereTheKeyLeaves(t, out) })
	t.Run("SourceInAnotherPackage", func(t *testing.T) { testSourceInAnotherPackage(t, out) })
}

func BenchmarkAnalyzer(b *testing.B) {
	dir := analysistest.TestData()
	for b.Loop() {
		analysistest.Run(b, dir, attemptkey.Analyzer, "handlers", "misc", "crosspkg")
	}
}

// testReportedWhereTheKeyLeaves: the finding is at the request sent to the
// provider; the receipt that stores the key is related information.
func testReportedWhereTheKeyLeaves(t *testing.T, out string) {
	if !strings.Contains(out, "leaves.go:29:") || !regexp.MustCompile(`leaves\.go:32:\d+ also stored as field IdempotencyKey`).MatchString(out) {
		t.Errorf("want the finding at the request (line 29) and the receipt (line 32) related:\n%s", out)
	}
	if strings.Contains(out, "leaves.go:32:50 idempotency key") {
		t.Errorf("reported at the receipt:\n%s", out)
	}
}

// testSourceInAnotherPackage: a key drawn in a dependency names the source
// in its message without a position; the position is the first related
// location, in the dependency's file, as for a source in the package.
func testSourceInAnotherPackage(t *testing.T, out string) {
	if !regexp.MustCompile(`crosspkg\.go:13:\d+ idempotency key built from uuid\.NewString \(random per attempt\) via keylib\.NewNonce; [^|]*\| \S+/keylib/keylib\.go:\d+:\d+ uuid\.NewString: random per attempt \| `).MatchString(out) {
		t.Errorf("want the source in keylib as the first related location:\n%s", out)
	}
}
