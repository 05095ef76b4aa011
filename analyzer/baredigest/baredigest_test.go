package baredigest_test

import (
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/baredigest"
	"github.com/idemcheck/idemcheck/analyzer/internal/snippettest"
)

// TestBareDigest runs the rule's own test packages, an independently written
// labelled corpus, and the Bad and Good examples of doc.go (both compile,
// Bad is reported and Good is not) in one load: analysistest type-checks
// the standard library from source on every load, which is most of the
// cost.
func TestBareDigest(t *testing.T) {
	snippettest.Run(t, baredigest.Analyzer, baredigest.Rule, "baredigest", "corpusdigest")
}
