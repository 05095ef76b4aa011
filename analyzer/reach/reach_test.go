package reach_test

import (
	"go/ast"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/reach"
)

// show reports, at every declared function and at every call inside a
// retry loop, what reach computed, so testdata can state it with want.
var show = reporter("showreach", false)

// showLits is show for function literals and declarations, without the
// retry-loop calls.
var showLits = reporter("showlits", true)

func reporter(name string, lits bool) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      "reports the reach result",
		Requires: []*analysis.Analyzer{reach.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			r := reach.Of(pass)
			for _, f := range pass.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncDecl:
						pass.Reportf(n.Name.Pos(), "%s", describe(r.At(n.Body.Pos())))
					case *ast.FuncLit:
						if lits {
							pass.Reportf(n.Pos(), "lit %s", describe(r.At(n.Body.Pos())))
						}
					case *ast.CallExpr:
						if _, ok := r.RetryLoop(n.Pos()); ok && !lits {
							pass.Reportf(n.Pos(), "retried")
						}
					}
					return true
				})
			}
			return nil, nil
		},
	}
}

func describe(v reach.Via) string {
	var parts []string
	for _, b := range []struct {
		bit  reach.Via
		name string
	}{{reach.Redelivery, "redelivery"}, {reach.Request, "request"}, {reach.OutOfView, "outofview"}, {reach.Retry, "retry"}} {
		if v&b.bit != 0 {
			parts = append(parts, b.name)
		}
	}
	return "via " + strings.Join(parts, ",")
}

func TestReach(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), show, "entries")
}

// A literal handed to another package's function is reached the way its
// caller is when the callee calls it in place (a transaction helper, by
// name or through an interface), retried when the callee retries it, and
// out of view when it keeps it, spawns it, or stores it.
func TestCallbacksAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), showLits, "callbacks/app")
}
