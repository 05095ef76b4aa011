package sdkkey_test

import (
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/internal/snippettest"
	"github.com/idemcheck/idemcheck/analyzer/sdkkey"
)

// TestSDKKey runs the rule's own test packages, an independently written
// labelled corpus, and the Bad and Good examples of doc.go (both compile,
// Bad is reported and Good is not) in one load: analysistest type-checks
// the standard library from source on every load, which is most of the
// cost.
func TestSDKKey(t *testing.T) {
	snippettest.Run(t, sdkkey.Analyzer, sdkkey.Rule, "sdkkey", "payments", "corpussdk", "effect", "reached", "reachedcli", "handlers/resolvers")
}
