package appunique_test

import (
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/appunique"
	"github.com/idemcheck/idemcheck/analyzer/internal/snippettest"
)

// TestAppUnique runs the rule's own test packages, an independently written
// labelled corpus, and the Bad and Good examples of doc.go (both compile,
// Bad is reported and Good is not) in one load: analysistest type-checks
// the standard library from source on every load, which is most of the
// cost.
func TestAppUnique(t *testing.T) {
	snippettest.Run(t, appunique.Analyzer, appunique.Rule, "appunique", "corpusunique")
}
