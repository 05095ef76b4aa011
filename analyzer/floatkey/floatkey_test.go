package floatkey_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/floatkey"
)

// TestFloatKey runs the rule's own test packages and an independently
// written labelled corpus, in one load: analysistest type-checks the whole
// standard library from source on every Run, which is most of its cost.
func TestFloatKey(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), floatkey.Analyzer, "floatkey", "corpusfloat")
}
