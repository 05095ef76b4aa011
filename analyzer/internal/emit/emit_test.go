package emit_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// flagger reports every call to a function named flag twice ("flagged", then
// "flagged again", which must not appear) as rule
// IDEM900: emit must honour directives and report each position once.
var flagger = &analysis.Analyzer{
	Name:     "IDEM900",
	Doc:      "test analyzer for package emit",
	Requires: []*analysis.Analyzer{inspect.Analyzer, keymodel.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		if !emit.Enabled(pass, "IDEM900") {
			return nil, nil
		}
		rep := emit.New(pass, "IDEM900")
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
			call := n.(*ast.CallExpr)
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "flag" {
				rep.Report(call.Pos(), "flagged")
				rep.Report(call.Pos(), "flagged again")
			}
		})
		return nil, nil
	},
}

func TestReporter(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), flagger, "a")
}

// TestDisabledByConfiguration: a rule the configuration disables reports
// nothing (package quiet calls flag without expecting a finding).
func TestDisabledByConfiguration(t *testing.T) {
	if err := keymodel.Analyzer.Flags.Set(config.FlagName, config.Encode([]byte("disable: [IDEM900]\n"))); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = keymodel.Analyzer.Flags.Set(config.FlagName, "") }()
	analysistest.Run(t, analysistest.TestData(), flagger, "quiet")
}
