package wholepayload_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/wholepayload"
)

func TestWholePayload(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), wholepayload.Analyzer, "wholepayload")
}

// TestCorpus runs an independently written labelled corpus.
func TestCorpus(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), wholepayload.Analyzer, "corpuswhole")
}
