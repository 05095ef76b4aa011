package attemptkey

// Retried keys across packages. A function that draws a key once and
// retries with it (retry.go) is silent where no redeliverable entry of its
// own package reaches it; when it can be called from other packages, its
// fact holds the finding, and a caller reached from a delivery, a job or a
// webhook reports it at its call. A caller that is itself exported passes
// it on.

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/reach"
)

// retriedKeys is the fact of an exported function whose callers decide
// whether its retried keys are findings.
type retriedKeys struct {
	Keys []RetriedKey
}

// RetriedKey is one key drawn once per call and shared by the retries.
type RetriedKey struct {
	Message string // the finding, as it would be reported
	Posn    string // "file:line:col" where the key is sent
	Via     string // the function that draws it and retries
}

// AFact implements analysis.Fact.
func (*retriedKeys) AFact() {}

func (r *retriedKeys) String() string { return fmt.Sprintf("retried keys %d", len(r.Keys)) }

// holdForCallers keeps d, a finding whose key its retries share, in the
// facts of the exported functions through which other packages reach it.
func (e *engine) holdForCallers(f *finding, d analysis.Diagnostic) {
	scope, ok := e.reach.RetryScope(f.pos)
	if !ok || e.reach.At(scope.Pos())&reach.OutOfView == 0 {
		return
	}
	k := RetriedKey{Message: d.Message, Posn: e.fullPosn(d.Pos), Via: funcDisplay(f.fn)}
	for _, fn := range e.reach.ExportedReaching(scope.Pos()) {
		e.exportRetried(fn, k)
	}
}

func (e *engine) exportRetried(fn *types.Func, k RetriedKey) {
	var facts retriedKeys
	e.pass.ImportObjectFact(fn, &facts)
	for _, old := range facts.Keys {
		if old.Posn == k.Posn {
			return
		}
	}
	facts.Keys = append(facts.Keys, k)
	e.pass.ExportObjectFact(fn, &facts)
}

// relayRetried reports the retried keys of imported functions at their
// calls reached from a redeliverable entry of this package, and passes
// them on to this package's exported functions that callers elsewhere
// may reach them through.
func (e *engine) relayRetried() []analysis.Diagnostic {
	if e.reach == nil {
		return nil
	}
	var out []analysis.Diagnostic
	e.importedCalls(func(call *ast.CallExpr, fn *types.Func) {
		var facts retriedKeys
		if !e.pass.ImportObjectFact(fn, &facts) {
			return
		}
		v := e.reach.At(call.Pos())
		for _, k := range facts.Keys {
			if v&reach.Redelivery != 0 {
				out = append(out, analysis.Diagnostic{Pos: call.Pos(), Category: Rule.ID, Message: k.Message, Related: []analysis.RelatedInformation{
					{Pos: e.posOf(k.Posn), Message: "sent by " + k.Via + ", which draws the key once per call and shares it with its retries; this call is reached from a redeliverable entry"},
				}})
			}
			if v&reach.OutOfView != 0 {
				for _, up := range e.reach.ExportedReaching(call.Pos()) {
					e.exportRetried(up, k)
				}
			}
		}
	})
	return out
}

// importedCalls calls visit for each call, in this package's files, of a
// function another package declares.
func (e *engine) importedCalls(visit func(call *ast.CallExpr, fn *types.Func)) {
	for _, file := range e.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if fn := calledFunc(e.pass.TypesInfo, call); fn != nil && fn.Pkg() != nil && fn.Pkg() != e.pass.Pkg {
				visit(call, fn)
			}
			return true
		})
	}
}

// calledFunc is the function or method a call names statically.
func calledFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}
