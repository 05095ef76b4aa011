package attemptkey_test

import (
	"regexp"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
)

// TestProvenance runs the regression corpus of issue 18: each shape that
// was reported by a name, or missed, as a silent look-alike next to a true
// finding of the same form (testdata/src/provenance).
func TestProvenance(t *testing.T) {
	// Facts only, not diagnostics, are left unchecked; "/" covers cgo's
	// output in the build cache, where provenance/cgo's package fact sits.
	results := analysistest.Run(diagnosticsOnlyIn{t, []string{"provenance/", "/"}}, analysistest.TestData(), attemptkey.Analyzer, "provenance/...")
	var loaded []*packages.Package
	for _, r := range results {
		loaded = append(loaded, r.Action.Package)
	}
	out := render(t, loaded)
	// Shape 8: at the publish, with the source and the constructor that
	// set the field as related information.
	want := regexp.MustCompile(`sender\.go:38:\d+ idempotency key built from uuid\.NewString[^\n]*` +
		`\| \S+sender\.go:27:\d+ uuid\.NewString: random per attempt ` +
		`\| \S+sender\.go:27:\d+ used as idempotency key: field IdempotencyKey in NewEventHeader ` +
		`\| \S+sender\.go:37:\d+ returned by sender\.NewEventHeader[^\n]*` +
		`\| \S+sender\.go:38:\d+ sent by HandleRefund`)
	if !want.MatchString(out) {
		t.Errorf("want the finding at the publish, the source and the constructor related:\n%s", out)
	}
}
