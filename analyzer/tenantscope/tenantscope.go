package tenantscope

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/internal/directive"
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
	// Findings in generated code (sqlc's queries) are reported at their
	// callers, in other packages too.
	FactTypes: []analysis.Fact{new(directive.GeneratedFindings)},
}

func init() {
	keymodel.RegisterFlag(&Analyzer.Flags)
}

func run(pass *analysis.Pass) (any, error) {
	if !emit.Enabled(pass, Rule.ID) || directive.IsStandard(pass) {
		return nil, nil
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	rep := emit.New(pass, Rule.ID)
	cfg := keymodel.Of(pass).Config
	var named map[string][]string // constraint names, resolved on first use
	resolve := func(name string) ([]string, bool) {
		if named == nil {
			named = constraints(pass)
		}
		cols, ok := named[name]
		return cols, ok
	}
	for _, f := range sqlquery.Funcs(pass, ins) {
		for _, q := range f.Queries {
			for _, stmt := range sqlquery.Statements(q.SQL) {
				reportUpserts(rep, cfg, q, stmt, resolve)
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
// used updates that tenant's row (and RETURNING hands it back), or, with
// DO NOTHING, turns this tenant's insert into a no-op, so its request is
// taken for a duplicate. A target named by constraint counts when the
// constraint's definition is in the package; otherwise it is not reported.
func reportUpserts(rep *emit.Reporter, cfg *config.Config, q sqlquery.Query, stmt string, resolve func(string) ([]string, bool)) {
	for _, u := range upserts(stmt) {
		if !sqlquery.IsIdempotencyTable(cfg, u.table) {
			continue
		}
		cols := u.conflict
		target := "(" + strings.Join(cols, ", ") + ")"
		if u.constraint != "" {
			var ok bool
			if cols, ok = resolve(u.constraint); !ok {
				continue // defined elsewhere: no guess
			}
			target = "on constraint " + u.constraint + " (" + strings.Join(cols, ", ") + ")"
		}
		keyCol := unscopedKeyColumn(cfg, cols)
		if keyCol == "" {
			continue
		}
		var effect string
		switch {
		case u.action == "nothing":
			effect = "turns this insert into a no-op, so this tenant's request is taken for a duplicate"
		case u.returning:
			effect = "updates that tenant's record and returns it"
		default:
			effect = "overwrites that tenant's record"
		}
		rep.Report(q.Call.Pos(), fmt.Sprintf(
			"insert on %s with on conflict %s do %s has no tenant column in the conflict target: a key another tenant used %s; add tenant_id to the conflict target and the unique key",
			u.table, target, u.action, effect))
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
