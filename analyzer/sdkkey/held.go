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
	"strings"

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

// heldInDriver is the fact of an exported function on which the driver
// holds keyless writes passed on to it from interface calls (see emit's
// held.go): the package cannot know the writes, so its callers claim the
// function by name and say how they call it.
type heldInDriver struct {
	Passed bool
}

// AFact implements analysis.Fact.
func (*heldInDriver) AFact() {}

func (*heldInDriver) String() string { return "held keyless writes in the driver" }

// relayHeld settles, at every call of an imported function holding
// writes, each of them: reported when the call can run again, passed on
// when only this package's exported functions lead to it, settled when
// only a route or a command line does. Calls of the module's interface
// methods, and of functions holding writes in the driver, claim what they
// reach for the driver to settle.
func relayHeld(pass *analysis.Pass, rep *emit.Reporter, r *reach.Result) {
	for _, file := range pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := keyflow.Callee(pass.TypesInfo, call)
			if fn == nil || fn.Pkg() == nil {
				return true
			}
			if emit.InterfaceMethods(fn) != "" {
				if inModule(pass, fn.Pkg()) {
					claimThrough(pass, r, call, fn, emit.ClaimInterface)
				}
				return true
			}
			if fn.Pkg() == pass.Pkg {
				return true
			}
			var facts heldWrites
			if pass.ImportObjectFact(fn, &facts) {
				emit.Claim(pass, call.Pos(), fn)
				for _, w := range facts.Writes {
					settle(pass, rep, r, call, fn, w)
				}
			}
			if pass.ImportObjectFact(fn, new(heldInDriver)) {
				claimThrough(pass, r, call, fn, emit.ClaimFunc)
			}
			return true
		})
		claimHandedOn(pass, file)
	}
}

// claimHandedOn claims, as repeating, the functions of other packages and
// the module's interface methods this file refers to without calling them
// (a method value handed to a scheduler), and the methods of the module's
// types it hands to a library's interface (a job given to a cron): whoever
// holds them may call them, again. In an application the driver takes a
// held write that nothing calls, refers to or hands on for dead code, so
// each of these must be seen.
func claimHandedOn(pass *analysis.Pass, file *ast.File) {
	callees := map[*ast.Ident]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		d, ok := n.(*ast.FuncDecl)
		if !ok {
			return visitHanded(pass, n, nil, callees)
		}
		var res *types.Tuple
		if fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func); ok {
			res = fn.Type().(*types.Signature).Results()
		}
		if d.Body != nil {
			ast.Inspect(d.Body, func(m ast.Node) bool { return visitHanded(pass, m, res, callees) })
		}
		return false
	})
	const why = "handed on here as a value: whoever holds it may call it again"
	ast.Inspect(file, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || callees[id] {
			return true
		}
		fn, ok := pass.TypesInfo.Uses[id].(*types.Func)
		if !ok || fn.Pkg() == nil {
			return true
		}
		switch {
		case emit.InterfaceMethods(fn) != "":
			if inModule(pass, fn.Pkg()) {
				emit.ClaimInterface(pass, id.Pos(), fn, emit.ClaimRepeats, why, nil, nil)
			}
		case fn.Pkg() != pass.Pkg && inModule(pass, fn.Pkg()):
			emit.ClaimFunc(pass, id.Pos(), fn, emit.ClaimRepeats, why, nil, nil)
		}
		return true
	})
}

// claimLibraryInterfaces claims the methods of a module type that call
// hands to a parameter of an interface declared outside the module: the
// library calls them as it likes.
func claimLibraryInterfaces(pass *analysis.Pass, call *ast.CallExpr) {
	sig, ok := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	if !ok {
		return
	}
	for i, arg := range call.Args {
		var pt types.Type
		switch {
		case i < sig.Params().Len()-1 || !sig.Variadic() && i < sig.Params().Len():
			pt = sig.Params().At(i).Type()
		case sig.Variadic() && sig.Params().Len() > 0:
			if sl, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok {
				pt = sl.Elem()
			}
		}
		if pt != nil && !(call.Ellipsis.IsValid() && i == len(call.Args)-1) {
			claimConversion(pass, arg, pt)
		}
	}
}

// claimConversions claims, as claimLibraryInterfaces does for arguments,
// the module values n converts to a library's interface otherwise: a
// return (func NewJob() cron.Job { return &Job{} }), an assignment to an
// interface variable or field, an element of a composite literal.
func claimConversions(pass *analysis.Pass, n ast.Node, results *types.Tuple) {
	info := pass.TypesInfo
	switch n := n.(type) {
	case *ast.ReturnStmt:
		if results != nil && len(n.Results) == results.Len() {
			for i, r := range n.Results {
				claimConversion(pass, r, results.At(i).Type())
			}
		}
	case *ast.AssignStmt:
		if len(n.Lhs) == len(n.Rhs) {
			for i, l := range n.Lhs {
				if t := info.TypeOf(l); t != nil {
					claimConversion(pass, n.Rhs[i], t)
				}
			}
		}
	case *ast.ValueSpec:
		if n.Type != nil && len(n.Values) == len(n.Names) {
			for _, v := range n.Values {
				claimConversion(pass, v, info.TypeOf(n.Type))
			}
		}
	case *ast.CompositeLit:
		t := info.TypeOf(n)
		if t == nil {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Slice, *types.Array, *types.Map:
			elem := u.(interface{ Elem() types.Type }).Elem()
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				claimConversion(pass, e, elem)
			}
		case *types.Struct:
			for i, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := info.Uses[id].(*types.Var); ok {
							claimConversion(pass, kv.Value, f.Type())
						}
					}
				} else if i < u.NumFields() {
					claimConversion(pass, e, u.Field(i).Type())
				}
			}
		}
	}
}

// claimConversion claims the methods of e's module type that an interface
// type target, declared outside the module, lets its library call.
func claimConversion(pass *analysis.Pass, e ast.Expr, target types.Type) {
	iface, ok := types.Unalias(target).Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return
	}
	if n, ok := types.Unalias(target).(*types.Named); ok && n.Obj().Pkg() != nil && inModule(pass, n.Obj().Pkg()) {
		return // the module's own interface: its calls claim
	}
	at := pass.TypesInfo.TypeOf(e)
	if at == nil || types.IsInterface(at) {
		return
	}
	for m := range iface.Methods() {
		obj, _, _ := types.LookupFieldOrMethod(at, true, m.Pkg(), m.Name())
		if impl, ok := obj.(*types.Func); ok && impl.Pkg() != nil && inModule(pass, impl.Pkg()) {
			emit.ClaimFunc(pass, e.Pos(), impl, emit.ClaimRepeats, "handed here to "+types.TypeString(target, types.RelativeTo(pass.Pkg))+", whose library may call "+m.Name()+" again", nil, nil)
		}
	}
}

// visitHanded notes n's callee and claims what n converts to a library's
// interface; results are the enclosing function's, for returns.
func visitHanded(pass *analysis.Pass, n ast.Node, results *types.Tuple, callees map[*ast.Ident]bool) bool {
	if lit, ok := n.(*ast.FuncLit); ok {
		sig, _ := pass.TypesInfo.TypeOf(lit).(*types.Signature)
		var res *types.Tuple
		if sig != nil {
			res = sig.Results()
		}
		ast.Inspect(lit.Body, func(m ast.Node) bool { return visitHanded(pass, m, res, callees) })
		return false
	}
	if call, ok := n.(*ast.CallExpr); ok {
		if id := calleeIdent(call.Fun); id != nil {
			callees[id] = true
		}
		claimLibraryInterfaces(pass, call)
	}
	if n != nil {
		claimConversions(pass, n, results)
	}
	return true
}

// calleeIdent is the identifier naming a call's function, if any.
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	case *ast.IndexExpr:
		return calleeIdent(f.X)
	case *ast.IndexListExpr:
		return calleeIdent(f.X)
	}
	return nil
}

// claimThrough claims, for the driver, whatever a call of fn reaches, by
// how the call can run again.
func claimThrough(pass *analysis.Pass, r *reach.Result, call *ast.CallExpr, fn *types.Func, claim func(*analysis.Pass, token.Pos, *types.Func, string, string, []*types.Func, func(*types.Func) bool)) {
	way, why := callRepeats(r, call.Pos())
	switch way {
	case never:
		claim(pass, call.Pos(), fn, emit.ClaimSettles, "", nil, nil)
		return
	case ifCallersRepeat:
		if fns, ok := r.OutOfViewThrough(call.Pos()); ok {
			claim(pass, call.Pos(), fn, emit.ClaimPasses, "", fns, r.CalledInView)
			for _, up := range fns {
				pass.ExportObjectFact(up, &heldInDriver{Passed: true})
			}
			return
		}
	}
	claim(pass, call.Pos(), fn, emit.ClaimRepeats, fmt.Sprintf("reached through %s, called here %s", emit.ShortName(fn), why), nil, nil)
}

// inModule reports whether pkg belongs to the module of the package
// analyzed: only its interfaces can be implemented by the module's own
// writes in a way its code calls. Without module information, every
// package outside the standard library counts.
func inModule(pass *analysis.Pass, pkg *types.Package) bool {
	if pass.Module != nil && pass.Module.Path != "" {
		return pkg.Path() == pass.Module.Path || strings.HasPrefix(pkg.Path(), pass.Module.Path+"/")
	}
	first, _, _ := strings.Cut(pkg.Path(), "/")
	return strings.Contains(first, ".")
}

func settle(pass *analysis.Pass, rep *emit.Reporter, r *reach.Result, call *ast.CallExpr, fn *types.Func, w HeldWrite) {
	at := rep.PosOf(w.Posn)
	way, why := callRepeats(r, call.Pos())
	switch way {
	case never:
		return
	case ifCallersRepeat:
		if fns, ok := r.OutOfViewThrough(call.Pos()); ok {
			if held, handled := rep.Hold(at, w.Message, fns, r.CalledInView); handled {
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
