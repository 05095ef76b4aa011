package tenantscope

// An unscoped lookup in code that only exported functions lead to, which
// this package does not call, is held for callers in other packages (see
// emit's held.go): a call of one of them from any analyzed package makes
// it a finding; in an application, a lookup nothing calls is dead code
// that matches no one's key. The exported functions carry a heldLookups
// fact, so their callers in other packages claim them; calls through
// interfaces and method values handed on are claimed by IDEM002's
// analyzer, which claims every such call in the module.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
	"github.com/idemcheck/idemcheck/analyzer/reach"
)

// heldLookups is the fact of an exported function through which an
// unscoped lookup held for callers is reached.
type heldLookups struct{}

// AFact implements analysis.Fact.
func (*heldLookups) AFact() {}

func (*heldLookups) String() string { return "held unscoped lookups" }

// heldReporter reports IDEM007, holding the findings that only functions
// out of view lead to, and claims this package's calls of imported
// functions that hold some.
func heldReporter(pass *analysis.Pass, r *reach.Result) *emit.Reporter {
	emit.ClaimCalls(pass, func(call *ast.CallExpr) *types.Func { return keyflow.Callee(pass.TypesInfo, call) },
		func(fn *types.Func) bool { return pass.ImportObjectFact(fn, new(heldLookups)) })
	return emit.NewHeldUntilCalled(pass, Rule.ID, func(pos token.Pos) ([]*types.Func, bool) {
		fns, ok := r.OnlyOutOfViewThrough(pos)
		for _, fn := range fns {
			pass.ExportObjectFact(fn, new(heldLookups))
		}
		return fns, ok
	}, r.CalledInView)
}
