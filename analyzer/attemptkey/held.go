package attemptkey

// A key drawn per call in code that only exported functions lead to,
// which this package does not call, is held for callers in other packages
// (see emit's HoldUntilCalled): a call of one of them from any analyzed
// package makes it a finding (a route's client retries, a consumer's
// broker redelivers); in an application, a key nothing calls is dead code,
// sent by no one. The exported functions carry a heldKeys fact, so their
// callers in other packages claim them; calls through interfaces and
// function values handed on are claimed by IDEM002's analyzer.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/directive"
	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
	"github.com/idemcheck/idemcheck/analyzer/reach"
)

// heldKeys is the fact of an exported function through which a key
// finding held for callers is reached.
type heldKeys struct{}

// AFact implements analysis.Fact.
func (*heldKeys) AFact() {}

func (*heldKeys) String() string { return "held per-attempt keys" }

// heldReporter reports IDEM001, holding the findings that only functions
// out of view lead to, and claims this package's calls of imported
// functions that hold some.
func heldReporter(pass *analysis.Pass, r *reach.Result) *directive.Reporter {
	emit.ClaimCalls(pass, func(call *ast.CallExpr) *types.Func { return keyflow.Callee(pass.TypesInfo, call) },
		func(fn *types.Func) bool { return pass.ImportObjectFact(fn, new(heldKeys)) })
	return directive.NewDivertingReporter(pass, Rule.ID, emit.HoldUntilCalled(func(pos token.Pos) ([]*types.Func, bool) {
		fns, ok := r.OnlyOutOfViewThrough(pos)
		for _, fn := range fns {
			pass.ExportObjectFact(fn, new(heldKeys))
		}
		return fns, ok
	}, r.CalledInView))
}
