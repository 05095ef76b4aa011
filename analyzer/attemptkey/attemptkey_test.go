package attemptkey_test

import (
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
