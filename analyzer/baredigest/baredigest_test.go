package baredigest_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/baredigest"
)

func TestBareDigest(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), baredigest.Analyzer, "baredigest")
}

// TestCorpus runs an independently written labelled corpus.
func TestCorpus(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), baredigest.Analyzer, "corpusdigest")
}
