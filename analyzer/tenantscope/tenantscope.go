package tenantscope

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

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
				for _, msg := range sqlquery.Unscoped(cfg, stmt, resolve) {
					rep.Report(q.Call.Pos(), msg)
				}
			}
		}
	}
	return nil, nil
}
