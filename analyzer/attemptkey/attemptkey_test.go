package attemptkey_test

import (
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), attemptkey.Analyzer,
		"sources", "sinks", "traps", "closures", "outparams", "llm", "transport", "crosspkg", "directives", "handlers", "misc")
}

func BenchmarkAnalyzer(b *testing.B) {
	dir := analysistest.TestData()
	for b.Loop() {
		analysistest.Run(b, dir, attemptkey.Analyzer, "handlers", "misc", "crosspkg")
	}
}

// TestShapes runs the regression corpus of issue 10: one package per
// shape, each with findings and look-alikes that must stay silent.
func TestShapes(t *testing.T) {
	analysistest.Run(diagnosticsOnly{t}, analysistest.TestData(), attemptkey.Analyzer, "shapes/...")
}

// TestReportedWhereTheKeyLeaves: the finding is at the request sent to the
// provider; the receipt that stores the key is related information.
func TestReportedWhereTheKeyLeaves(t *testing.T) {
	out := render(t, loadTestdata(t, "shapes/leaves"))
	if !strings.Contains(out, "leaves.go:29:") || !regexp.MustCompile(`leaves\.go:32:\d+ also stored as field IdempotencyKey`).MatchString(out) {
		t.Errorf("want the finding at the request (line 29) and the receipt (line 32) related:\n%s", out)
	}
	if strings.Contains(out, "leaves.go:32:50 idempotency key") {
		t.Errorf("reported at the receipt:\n%s", out)
	}
}

// TestSourceInAnotherPackage: a key drawn in a dependency names the source
// in its message without a position; the position is the first related
// location, in the dependency's file, as for a source in the package.
func TestSourceInAnotherPackage(t *testing.T) {
	out := render(t, loadTestdata(t, "crosspkg"))
	if !regexp.MustCompile(`crosspkg\.go:13:\d+ idempotency key built from uuid\.NewString \(random per attempt\) via keylib\.NewNonce; [^|]*\| \S+/keylib/keylib\.go:\d+:\d+ uuid\.NewString: random per attempt \| `).MatchString(out) {
		t.Errorf("want the source in keylib as the first related location:\n%s", out)
	}
}
