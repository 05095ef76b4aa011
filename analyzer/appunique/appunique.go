package appunique

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/sqlquery"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// Analyzer reports inserts into idempotency tables that do not yield to a
// uniqueness constraint (IDEM006).
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
	replacing := replacingTables(pass, ins)
	for _, f := range sqlquery.Funcs(pass, ins) {
		if handlesUniqueViolation(pass.TypesInfo, f.Decl) {
			continue
		}
		for _, q := range f.Queries {
			if viaClickHouse(pass.TypesInfo, q.Call) {
				continue
			}
			for _, stmt := range sqlquery.Statements(q.SQL) {
				tables, yields := sqlquery.Inserts(stmt)
				if yields {
					continue
				}
				for _, table := range tables {
					if !sqlquery.IsIdempotencyTable(cfg, table) || replacing[table] {
						continue
					}
					report(rep, f, q, table)
				}
			}
		}
	}
	return nil, nil
}

func report(rep *emit.Reporter, f *sqlquery.Func, q sqlquery.Query, table string) {
	if sel := priorSelect(f, q, table); sel != nil {
		rep.Report(q.Call.Pos(), fmt.Sprintf(
			"insert into %s after a select on the same table without on conflict: read-decide-write loses the race to a concurrent redelivery; let a unique constraint decide (insert ... on conflict do nothing)",
			table), analysis.RelatedInformation{Pos: sel.Call.Pos(), Message: "select on " + table + " decides whether to insert"})
		return
	}
	rep.Report(q.Call.Pos(), fmt.Sprintf(
		"insert into %s without on conflict: uniqueness of the key is decided by the application; let a unique constraint decide (insert ... on conflict do nothing)",
		table))
}

// priorSelect finds a SELECT on table earlier in the same function.
func priorSelect(f *sqlquery.Func, insert sqlquery.Query, table string) *sqlquery.Query {
	for i, q := range f.Queries {
		if q.Arg.Pos() >= insert.Arg.Pos() {
			break
		}
		for _, stmt := range sqlquery.Statements(q.SQL) {
			for _, l := range sqlquery.Lookups(stmt) {
				if l.Kind == "select" && l.Table == table {
					return &f.Queries[i]
				}
			}
		}
	}
	return nil
}

var (
	uniqueViolationName = regexp.MustCompile(`(?i)^(unique_?violation|is_?unique_?violation|is_?duplicate_?key(_?err(or)?)?|err_?duplicate_?key|err_?unique_?violation)$`)
	uniqueViolationText = regexp.MustCompile(`(?i)duplicate key|unique constraint|^23505$`)
)

// handlesUniqueViolation reports functions that look at the unique
// violation the database raises (SQLSTATE 23505, MySQL 1062,
// pgerrcode.UniqueViolation): they let the database decide.
func handlesUniqueViolation(info *types.Info, decl *ast.FuncDecl) bool {
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.BasicLit:
			if tv, ok := info.Types[x]; ok && tv.Value != nil {
				switch tv.Value.Kind() {
				case constant.String:
					s := constant.StringVal(tv.Value)
					found = uniqueViolationText.MatchString(s)
				case constant.Int:
					found = x.Value == "1062"
				}
			}
		case *ast.Ident:
			found = uniqueViolationName.MatchString(x.Name)
		}
		return true
	})
	return found
}
