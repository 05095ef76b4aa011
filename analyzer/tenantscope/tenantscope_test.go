package tenantscope_test

import (
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/internal/snippettest"
	"github.com/idemcheck/idemcheck/analyzer/tenantscope"
)

// TestTenantScope runs the rule's own test packages, an independently written
// labelled corpus, sqlc-style generated code (sqlcdb, called from sqlcapp)
// and the Bad and Good examples of doc.go (both compile, Bad is reported
// and Good is not) in one load: analysistest type-checks the standard
// library from source on every load, which is most of the cost.
func TestTenantScope(t *testing.T) {
	results := snippettest.Run(t, tenantscope.Analyzer, tenantscope.Rule, "tenantscope", "corpustenant", "sqlcdb", "sqlcapp")
	// A finding in generated code is reported at the caller, with the
	// generated query as related information.
	for _, r := range results {
		if r.Pass.Pkg.Path() != "sqlcapp" {
			continue
		}
		for _, d := range r.Diagnostics {
			if len(d.Related) == 0 || !strings.Contains(d.Related[0].Message, "in generated code, reached through sqlcdb.Queries.") ||
				!strings.HasSuffix(r.Pass.Fset.Position(d.Related[0].Pos).Filename, "idempotency.sql.go") {
				t.Errorf("%s: want the generated query as related information, got %+v", r.Pass.Fset.Position(d.Pos), d.Related)
			}
		}
	}
}
