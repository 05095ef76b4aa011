package appunique_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/appunique"
)

func TestAppUnique(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), appunique.Analyzer, "appunique")
}

// TestCorpus runs an independently written labelled corpus.
func TestCorpus(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), appunique.Analyzer, "corpusunique")
}
