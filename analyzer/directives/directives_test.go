package directives_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
	"github.com/idemcheck/idemcheck/analyzer/directives"
	"github.com/idemcheck/idemcheck/analyzer/floatkey"
)

// The real IDEM001 and IDEM003 analyzers run first and record what their
// directives suppressed; package d's // want comments are the warnings.
func TestDirectives(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), directives.New(attemptkey.Analyzer, floatkey.Analyzer), "d")
}
