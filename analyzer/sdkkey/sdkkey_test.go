package sdkkey_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/sdkkey"
)

func TestSDKKey(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sdkkey.Analyzer, "sdkkey", "payments")
}

// TestCorpus runs an independently written labelled corpus of stripe-go calls.
func TestCorpus(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sdkkey.Analyzer, "corpussdk")
}
