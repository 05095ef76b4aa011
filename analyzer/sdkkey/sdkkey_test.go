package sdkkey_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/sdkkey"
)

// TestSDKKey runs the rule's own test packages and an independently
// written labelled corpus, in one load: analysistest type-checks the whole
// standard library from source on every Run, which is most of its cost.
func TestSDKKey(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sdkkey.Analyzer, "sdkkey", "payments", "corpussdk")
}
