package appunique

import (
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/internal/sqlquery"
)

// ClickHouse has no unique constraints and no ON CONFLICT; a
// ReplacingMergeTree table keeps one row per sorting key by design, so an
// insert into one is how deduplication is done there, not a decision left
// to the application.

// replacingDDL matches a CREATE TABLE with a ReplacingMergeTree engine
// (replicated and shared variants included) in normalized SQL.
var replacingDDL = regexp.MustCompile(`\bcreate\s+table\s+(?:if\s+not\s+exists\s+)?([\w.]+)\b[^;]*?\bengine\s*=\s*(?:replicated|shared)?replacingmergetree\b`)

// replacingTables returns the tables that constant strings of the package
// create with a ReplacingMergeTree engine.
func replacingTables(pass *analysis.Pass, ins *inspector.Inspector) map[string]bool {
	tables := map[string]bool{}
	ins.Preorder([]ast.Node{(*ast.BasicLit)(nil), (*ast.BinaryExpr)(nil)}, func(n ast.Node) {
		tv, ok := pass.TypesInfo.Types[n.(ast.Expr)]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return
		}
		sql := constant.StringVal(tv.Value)
		if !strings.Contains(strings.ToLower(sql), "replacingmergetree") {
			return
		}
		for _, m := range replacingDDL.FindAllStringSubmatch(sqlquery.Normalize(sql), -1) {
			name := m[1]
			if i := strings.LastIndex(name, "."); i >= 0 {
				name = name[i+1:]
			}
			tables[name] = true
		}
	})
	return tables
}

// clickHouseDrivers are the module paths of Go ClickHouse clients.
var clickHouseDrivers = []string{"github.com/ClickHouse/", "github.com/mailru/go-clickhouse", "github.com/uptrace/go-clickhouse"}

// viaClickHouse reports whether call is a method of a ClickHouse client's
// type: its SQL runs on ClickHouse, where no unique constraint exists to
// let decide.
func viaClickHouse(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	t := info.TypeOf(sel.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	path := named.Obj().Pkg().Path()
	for _, d := range clickHouseDrivers {
		if strings.HasPrefix(path, d) {
			return true
		}
	}
	return false
}
