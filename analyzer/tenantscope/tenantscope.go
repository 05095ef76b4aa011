package tenantscope

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/sqlquery"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// Analyzer reports idempotency-table lookups by key without a tenant
// column (IDEM007).
var Analyzer = &analysis.Analyzer{
	Name:     Rule.ID,
	Doc:      Rule.Doc(),
	URL:      Rule.URL(),
	Requires: []*analysis.Analyzer{inspect.Analyzer, keymodel.Analyzer},
	Run:      run,
}

func init() {
	keymodel.RegisterFlag(&Analyzer.Flags)
}

func run(pass *analysis.Pass) (any, error) {
	if !emit.Enabled(pass, Rule.ID) {
		return nil, nil
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	rep := emit.New(pass, Rule.ID)
	cfg := keymodel.Of(pass).Config
	for _, f := range sqlquery.Funcs(pass, ins) {
		for _, q := range f.Queries {
			for _, stmt := range sqlquery.Statements(q.SQL) {
				reportUpserts(rep, cfg, q, stmt)
				for _, l := range sqlquery.Lookups(stmt) {
					if !sqlquery.IsIdempotencyTable(cfg, l.Table) {
						continue
					}
					keyCol := unscopedKeyColumn(cfg, l.Where)
					if keyCol == "" {
						continue
					}
					rep.Report(q.Call.Pos(), fmt.Sprintf(
						"%s on %s filters by %s without a tenant column: keys are unique only per tenant, so this can match another tenant's record; add tenant_id to the where clause and the primary key",
						l.Kind, l.Table, keyCol))
				}
			}
		}
	}
	return nil, nil
}

// reportUpserts reports an upsert into an idempotency table whose conflict
// target has the key but no tenant column: a key another tenant already
// used updates that tenant's row (and RETURNING hands it back), the same
// cross-tenant match as a lookup by key alone.
func reportUpserts(rep *emit.Reporter, cfg *config.Config, q sqlquery.Query, stmt string) {
	for _, u := range upserts(stmt) {
		if !sqlquery.IsIdempotencyTable(cfg, u.table) {
			continue
		}
		keyCol := unscopedKeyColumn(cfg, u.conflict)
		if keyCol == "" {
			continue
		}
		effect := "overwrites that tenant's record"
		if u.returning {
			effect = "updates that tenant's record and returns it"
		}
		rep.Report(q.Call.Pos(), fmt.Sprintf(
			"insert on %s with on conflict (%s) do update has no tenant column in the conflict target: a key another tenant used %s; add tenant_id to the conflict target and the unique key",
			u.table, strings.Join(u.conflict, ", "), effect))
	}
}

// unscopedKeyColumn returns the first key column among cols when none of
// them is a tenant column, and "" otherwise: a match on such columns can
// find another tenant's record.
func unscopedKeyColumn(cfg *config.Config, cols []string) string {
	keyCol := ""
	for _, col := range cols {
		if sqlquery.IsTenantColumn(cfg, col) {
			return ""
		}
		if keyCol == "" && sqlquery.IsKeyColumn(col) {
			keyCol = col
		}
	}
	return keyCol
}
