package attemptkey_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// configure sets the configuration the way idemcheck lint does: the
// content of .idemcheck.yaml as the analyzers' -config flag.
func configure(t *testing.T, yaml string) {
	t.Helper()
	if err := keymodel.Analyzer.Flags.Set(config.FlagName, config.Encode([]byte(yaml))); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = keymodel.Analyzer.Flags.Set(config.FlagName, "") })
}

// TestConfig extends the model the way .idemcheck.yaml does (a source
// function and field, a sink function and a barrier) and replaces the key
// name pattern with -keypattern.
func TestConfig(t *testing.T) {
	if err := attemptkey.Analyzer.Flags.Set("keypattern", `^opkey$|idempotencykey`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = attemptkey.Analyzer.Flags.Set("keypattern", "") })
	configure(t, `
sources:
  - {package: configured, function: Nonce|DeliveryNo}
  - {package: configured, field: Nonce|DeliveryNo}
sinks: [{package: configured, function: SendWithToken}]
barriers: [{package: configured, function: LoadKey}]
`)
	analysistest.Run(t, analysistest.TestData(), attemptkey.Analyzer, "configured")
}
