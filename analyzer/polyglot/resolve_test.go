//go:build cgo

package polyglot_test

import (
	"path/filepath"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/polyglot"
)

// A project directory named like an SDK (stripe/, with an __init__.py)
// shadows the SDK only for code whose service does not install it: where
// the nearest requirements.txt declares stripe, `import stripe` is the SDK.
func TestDeclaredDependencyIsNotTheProjectsPackage(t *testing.T) {
	res, err := polyglot.Run(polyglot.Options{Dir: filepath.Join("testdata", "shadowed"), Languages: []string{"python"}, Model: keymodel.Default()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, filepath.ToSlash(f.File)+" "+f.Rule)
	}
	if len(got) != 1 || got[0] != "stripe/process/refunds.py IDEM002" {
		t.Errorf("findings %v, want only the keyless refund of the service that installs stripe", got)
	}
}
