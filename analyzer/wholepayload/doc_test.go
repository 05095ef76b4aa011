package wholepayload_test

import (
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/internal/snippettest"
	"github.com/idemcheck/idemcheck/analyzer/wholepayload"
)

// TestDocExamples checks the Bad and Good examples of doc.go: both compile,
// Bad is reported and Good is not.
func TestDocExamples(t *testing.T) {
	t.Parallel()
	snippettest.Check(t, wholepayload.Analyzer, wholepayload.Rule)
}
