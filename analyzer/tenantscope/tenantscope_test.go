package tenantscope_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/tenantscope"
)

func TestTenantScope(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), tenantscope.Analyzer, "tenantscope")
}

// TestCorpus runs an independently written labelled corpus.
func TestCorpus(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), tenantscope.Analyzer, "corpustenant")
}
