package baredigest_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/baredigest"
)

// TestBareDigest runs the rule's own test packages and an independently
// written labelled corpus, in one load: analysistest type-checks the whole
// standard library from source on every Run, which is most of its cost.
func TestBareDigest(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), baredigest.Analyzer, "baredigest", "corpusdigest")
}
