package attemptkey_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
)

// TestCorpus runs a labelled corpus of payment handlers written apart from
// the analyzer: about half must be reported at the marked lines, the other
// half (the traps and ordinary clean code) must stay silent. The corpus
// labels diagnostics only, so the summary facts the analyzer exports for
// every function are not part of the expectation.
func TestCorpus(t *testing.T) {
	analysistest.Run(diagnosticsOnly{t}, analysistest.TestData(), attemptkey.Analyzer, "corpus/...")
}

// diagnosticsOnly drops analysistest's "unexpected fact" complaints and
// passes every other failure through.
type diagnosticsOnly struct{ t *testing.T }

func (d diagnosticsOnly) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if strings.Contains(msg, "unexpected fact") {
		return
	}
	d.t.Helper()
	d.t.Error(msg)
}
