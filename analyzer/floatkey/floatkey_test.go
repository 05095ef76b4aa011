package floatkey_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/floatkey"
)

func TestFloatKey(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), floatkey.Analyzer, "floatkey")
}

// TestCorpus runs an independently written labelled corpus.
func TestCorpus(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), floatkey.Analyzer, "corpusfloat")
}
