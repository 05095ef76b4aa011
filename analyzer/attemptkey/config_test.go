package attemptkey_test

import (
	"regexp"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

// TestConfig extends the model the way .idemcheck.yaml does: a custom key
// name, a source function and field, a sink function and a barrier.
func TestConfig(t *testing.T) {
	attemptkey.Configure(attemptkey.Config{
		Keys: keyname.MustCompile(`^opkey$|idempotencykey`),
		Sources: []attemptkey.Pattern{
			{Package: "configured", Name: regexp.MustCompile(`^Nonce$|^DeliveryNo$`)},
		},
		Sinks:    []attemptkey.Pattern{{Package: "configured", Name: regexp.MustCompile(`^SendWithToken$`)}},
		Barriers: []attemptkey.Pattern{{Package: "configured", Name: regexp.MustCompile(`^LoadKey$`)}},
	})
	defer attemptkey.Configure(attemptkey.Config{})
	analysistest.Run(t, analysistest.TestData(), attemptkey.Analyzer, "configured")
}
