package sdkkey

// Keyless writes held for callers in other packages (see emit's held.go).
// A keyless write that only callers out of view can repeat, through
// exported functions, hangs in a heldWrites fact on those functions. A
// package calling one decides: from code a redelivery or a retry reaches,
// it reports the write, at the write, with the call as related
// information; from a route or a command line only, it settles it; from
// its own exported functions, it passes the write on to them. lint's
// driver reports a held write that no analyzed package calls.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
	"github.com/idemcheck/idemcheck/analyzer/reach"
)

// heldWrites is the fact of an exported function through which keyless
// writes are reached that only its callers can make repeat.
type heldWrites struct {
	Writes []HeldWrite
}

// HeldWrite is one keyless write held for callers.
type HeldWrite struct {
	Message string // the finding, as it would be reported
	Posn    string // "file:line:col" of the stripe-go call
}

// AFact implements analysis.Fact.
func (*heldWrites) AFact() {}

func (h *heldWrites) String() string { return fmt.Sprintf("held keyless writes %d", len(h.Writes)) }

// holdFor adds w to the facts of fns.
func holdFor(pass *analysis.Pass, fns []*types.Func, w HeldWrite) {
	for _, fn := range fns {
		var facts heldWrites
		pass.ImportObjectFact(fn, &facts)
		known := false
		for _, old := range facts.Writes {
			known = known || old.Posn == w.Posn
		}
		if !known {
			facts.Writes = append(facts.Writes, w)
			pass.ExportObjectFact(fn, &facts)
		}
	}
}

// relayHeld settles, at every call of an imported function holding
// writes, each of them: reported when the call can run again, passed on
// when only this package's exported functions lead to it, settled when
// only a route or a command line does.
func relayHeld(pass *analysis.Pass, rep *emit.Reporter, r *reach.Result) {
	for _, file := range pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := keyflow.Callee(pass.TypesInfo, call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
				return true
			}
			var facts heldWrites
			if !pass.ImportObjectFact(fn, &facts) {
				return true
			}
			emit.Claim(pass, call.Pos(), fn)
			for _, w := range facts.Writes {
				settle(pass, rep, r, call, fn, w)
			}
			return true
		})
	}
}

func settle(pass *analysis.Pass, rep *emit.Reporter, r *reach.Result, call *ast.CallExpr, fn *types.Func, w HeldWrite) {
	at := rep.PosOf(w.Posn)
	way, why := callRepeats(r, call.Pos())
	switch way {
	case never:
		return
	case ifCallersRepeat:
		if fns, ok := r.OutOfViewThrough(call.Pos()); ok {
			if held, handled := rep.Hold(at, w.Message, fns); handled {
				if held {
					holdFor(pass, fns, w)
				}
				return
			}
		}
	}
	rep.Report(at, w.Message, analysis.RelatedInformation{Pos: call.Pos(), Message: fmt.Sprintf("reached through %s, called here %s", emit.ShortName(fn), why)})
}

// callRepeats is repeats for a call of another package's function, with
// why it can run again.
func callRepeats(r *reach.Result, pos token.Pos) (repeatWay, string) {
	if _, ok := r.RetryLoop(pos); ok {
		return repeats, "in a loop that retries it"
	}
	switch v := r.At(pos); {
	case v == 0:
		return repeats, "outside any function"
	case v&reach.Redelivery != 0:
		return repeats, "in code a broker delivery, a queued job or a webhook reaches"
	case v&reach.Retry != 0:
		return repeats, "in code a retry loop runs again"
	case v&reach.OutOfView != 0:
		return ifCallersRepeat, "in code whose callers are out of view"
	}
	return never, ""
}
