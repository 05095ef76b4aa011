package floatkey_test

import (
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/floatkey"
	"github.com/idemcheck/idemcheck/analyzer/internal/snippettest"
)

// TestFloatKey runs the rule's own test packages, an independently written
// labelled corpus, and the Bad and Good examples of doc.go (both compile,
// Bad is reported and Good is not) in one load: analysistest type-checks
// the standard library from source on every load, which is most of the
// cost.
func TestFloatKey(t *testing.T) {
	snippettest.Run(t, floatkey.Analyzer, floatkey.Rule, "floatkey", "corpusfloat")
}
