package keyflow_test

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// probe reports every key sink keyflow finds, with the variables and
// fields its backward slice reaches: "sink <what> <- a, p.ID".
var probe = &analysis.Analyzer{
	Name:     "keyflowprobe",
	Doc:      "test: report keyflow's sinks and slices",
	Requires: []*analysis.Analyzer{inspect.Analyzer, keymodel.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		pkg := keyflow.Load(pass, pass.ResultOf[inspect.Analyzer].(*inspector.Inspector))
		for _, f := range pkg.WithSinks() {
			for _, s := range f.Sinks {
				pass.Reportf(s.Pos, "sink %s <- %s", s.What, strings.Join(slice(f, s.Value), ", "))
			}
		}
		return nil, nil
	},
}

// slice lists the identifiers and field selections on the backward slice
// of v, sorted.
func slice(f *keyflow.Func, v ast.Expr) []string {
	seen := map[string]bool{}
	f.Walk(v, func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.Ident:
			if _, ok := f.Info().ObjectOf(x).(*types.Var); ok {
				seen[x.Name] = true
			}
		case *ast.SelectorExpr:
			if s, ok := f.Info().Selections[x]; ok && s.Kind() == types.FieldVal {
				seen[types.ExprString(x)] = true
			}
		}
		return true
	})
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func TestSinksAndSlices(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), probe, "flows")
}
