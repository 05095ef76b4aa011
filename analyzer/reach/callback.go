package reach

// Callbacks across packages. A function literal handed to a function of
// another package is called out of view: the package cannot see whether
// the callee calls it once, retries it, or keeps it for a broker to call
// per delivery. The callee's package can, and says so in a fact for each
// parameter that carries function values (the parameter itself, or the
// function-typed fields of a struct it points to): called in place (during
// the call, not kept, not in a new goroutine), or called in a retry loop.
// A transaction helper (repo.CheckoutTx(ctx, args{CreatePaymentFn: func…}))
// calls its callback in place, so the literal is reached the way its
// caller is; a retry helper retries it. A parameter used any other way
// (stored, returned, sent, handed to a function that says neither) earns
// no fact, and the literal stays out of view.

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// callbacks is the fact of a function or an interface method: the
// indexes of its parameters whose function values it calls in place, and
// those it calls in a retry loop. An interface method has it when every
// type of its package that implements the interface agrees.
type callbacks struct {
	InPlace []int
	Retried []int
}

// AFact implements analysis.Fact.
func (*callbacks) AFact() {}

func (c *callbacks) String() string {
	return fmt.Sprintf("callbacks in place %v, retried %v", c.InPlace, c.Retried)
}

// use is what a function does with a parameter's function values.
type use int

const (
	kept       use = iota // stored, returned, or handed on out of view
	inPlace               // called during the call
	retriedUse            // called in a retry loop
)

// callbackUses computes, to a fixed point over the package's functions,
// what each does with the function values of its parameters, and exports
// the facts other packages read.
func callbackUses(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl) map[*types.Func]*callbacks {
	// A worklist to the least fixed point: a function is judged again only
	// when the fact of a function it calls has changed. Each change only
	// adds facts (a use judged with more facts is never weaker), so the
	// fixed point is the one every order reaches, and each function is
	// judged again at most as often as its callees' facts grow, not once
	// per round over the whole package (a chain of n helpers took n rounds
	// of n bodies).
	fns := slices.SortedFunc(maps.Keys(decls), func(a, b *types.Func) int { return cmp.Compare(a.Pos(), b.Pos()) })
	callers := localCallers(pass.TypesInfo, decls)
	local := map[*types.Func]*callbacks{}
	worklist(fns, func(fn *types.Func) []*types.Func {
		c := paramUses(pass, local, fn, decls[fn])
		if c == nil || local[fn] != nil && slices.Equal(local[fn].InPlace, c.InPlace) && slices.Equal(local[fn].Retried, c.Retried) {
			return nil
		}
		local[fn] = c
		return callers[fn]
	})
	for fn, c := range local {
		pass.ExportObjectFact(fn, c)
	}
	exportInterfaceCallbacks(pass, local)
	return local
}

// worklist judges each item once, then again each time an item it
// depends on changed: judge returns the items to judge again (the
// dependents of an item whose result changed), none when it did not.
func worklist[T comparable](items []T, judge func(T) []T) {
	queued := make(map[T]bool, len(items))
	work := slices.Clone(items)
	for _, it := range items {
		queued[it] = true
	}
	for len(work) > 0 {
		it := work[0]
		work = work[1:]
		queued[it] = false
		for _, d := range judge(it) {
			if !queued[d] {
				queued[d] = true
				work = append(work, d)
			}
		}
	}
}

// localCallers maps each function of decls to the functions of decls whose
// bodies call it, in source order: whose facts depend on its fact.
func localCallers(info *types.Info, decls map[*types.Func]*ast.FuncDecl) map[*types.Func][]*types.Func {
	fns := slices.SortedFunc(maps.Keys(decls), func(a, b *types.Func) int { return cmp.Compare(a.Pos(), b.Pos()) })
	callers := map[*types.Func][]*types.Func{}
	for _, fn := range fns {
		d := decls[fn]
		if d.Body == nil {
			continue
		}
		seen := map[*types.Func]bool{}
		ast.Inspect(d.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if callee := calleeFunc(info, call); callee != nil && decls[callee] != nil && !seen[callee] {
				seen[callee] = true
				callers[callee] = append(callers[callee], fn)
			}
			return true
		})
	}
	return callers
}

// paramUses is the fact fn earns from its body d, given the facts known.
func paramUses(pass *analysis.Pass, known map[*types.Func]*callbacks, fn *types.Func, d *ast.FuncDecl) *callbacks {
	if d.Body == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	var out callbacks
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if !carriesFuncs(p.Type()) {
			continue
		}
		switch usesOf(pass, known, d, p) {
		case inPlace:
			out.InPlace = append(out.InPlace, i)
		case retriedUse:
			out.Retried = append(out.Retried, i)
		}
	}
	if out.InPlace == nil && out.Retried == nil {
		return nil
	}
	return &out
}

// carriesFuncs reports a function type, or a struct (or pointer to one)
// with a function-typed field.
func carriesFuncs(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Struct:
		for f := range u.Fields() {
			if _, ok := f.Type().Underlying().(*types.Signature); ok {
				return true
			}
		}
	}
	return false
}

// usesOf classifies every use of parameter p in d: the weakest use wins
// (kept over retried over called in place).
func usesOf(pass *analysis.Pass, known map[*types.Func]*callbacks, d *ast.FuncDecl, p *types.Var) use {
	info := pass.TypesInfo
	result := inPlace
	var stack []ast.Node
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == p && result != kept {
			result = weakest(result, useAt(pass, known, d, stack), lambdasInPlace(pass, known, d, stack))
		}
		return true
	})
	return result
}

// weakest is the weakest of uses: kept, then retried, then in place.
func weakest(uses ...use) use {
	m := inPlace
	for _, u := range uses {
		if u == kept {
			return kept
		}
		if u == retriedUse {
			m = retriedUse
		}
	}
	return m
}

// useAt classifies the use of a parameter at the end of stack.
func useAt(pass *analysis.Pass, known map[*types.Func]*callbacks, d *ast.FuncDecl, stack []ast.Node) use {
	info := pass.TypesInfo
	i := len(stack) - 1
	e := stack[i].(ast.Expr)
	for i > 0 {
		if _, ok := stack[i-1].(*ast.ParenExpr); !ok {
			break
		}
		i--
		e = stack[i].(ast.Expr)
	}
	parent := stack[i-1]
	if sel, ok := parent.(*ast.SelectorExpr); ok && sel.X == e {
		if _, isFunc := info.TypeOf(sel).Underlying().(*types.Signature); !isFunc || info.Selections[sel] != nil && info.Selections[sel].Kind() != types.FieldVal {
			return inPlace // a data field, or a method of the value: no function value leaves
		}
		i--
		e = sel
		parent = stack[i-1]
	}
	switch q := parent.(type) {
	case *ast.CallExpr:
		if q.Fun == e {
			return calledAt(pass.TypesInfo, d, stack[:i])
		}
		return handedTo(pass, known, q, e)
	case *ast.BinaryExpr:
		if q.Op == token.EQL || q.Op == token.NEQ {
			return inPlace
		}
	}
	return kept
}

// calledAt is how a call whose callee is at the end of stack runs: in a
// goroutine it is kept (it outlives the call), in a retry loop retried.
func calledAt(info *types.Info, d *ast.FuncDecl, stack []ast.Node) use {
	u := inPlace
	for j := len(stack) - 1; j >= 0; j-- {
		switch n := stack[j].(type) {
		case *ast.GoStmt:
			return kept
		case *ast.FuncLit:
			return u // the literal's own way of running is lambdasInPlace's
		case *ast.ForStmt, *ast.RangeStmt:
			if isRetryLoop(info, n) {
				u = retriedUse
			}
		}
	}
	return u
}

// handedTo is what the callee of call does with argument e, by its fact.
func handedTo(pass *analysis.Pass, known map[*types.Func]*callbacks, call *ast.CallExpr, e ast.Expr) use {
	fn := calleeFunc(pass.TypesInfo, call)
	if fn == nil {
		return kept
	}
	c := known[fn]
	if c == nil {
		c = new(callbacks)
		if !pass.ImportObjectFact(fn, c) {
			return kept
		}
	}
	for j, a := range call.Args {
		if ast.Unparen(a) != e {
			continue
		}
		switch {
		case slices.Contains(c.InPlace, j):
			return inPlace
		case slices.Contains(c.Retried, j):
			return retriedUse
		}
	}
	return kept
}

// lambdasInPlace is how the function literals enclosing the end of stack
// run: each must be called where it is written, or handed to a parameter
// its callee calls in place (or retries).
func lambdasInPlace(pass *analysis.Pass, known map[*types.Func]*callbacks, d *ast.FuncDecl, stack []ast.Node) use {
	u := inPlace
	for j := len(stack) - 1; j > 0; j-- {
		lit, ok := stack[j].(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := stack[j-1].(*ast.CallExpr)
		if !ok {
			return kept
		}
		if call.Fun == lit {
			u = weakest(u, calledAt(pass.TypesInfo, d, stack[:j]))
		} else {
			u = weakest(u, handedTo(pass, known, call, lit), calledAt(pass.TypesInfo, d, stack[:j-1]))
		}
		if u == kept {
			return kept
		}
	}
	return u
}

// exportInterfaceCallbacks gives each method of the package's interfaces
// the fact its implementations in the package agree on: a parameter is
// called in place when every implementation calls it in place, retried
// when any retries it.
func exportInterfaceCallbacks(pass *analysis.Pass, local map[*types.Func]*callbacks) {
	scope := pass.Pkg.Scope()
	var concrete []types.Type
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && !types.IsInterface(tn.Type()) && !tn.IsAlias() {
			concrete = append(concrete, types.NewPointer(tn.Type()))
		}
	}
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !types.IsInterface(tn.Type()) {
			continue
		}
		iface := tn.Type().Underlying().(*types.Interface)
		for m := range iface.Methods() {
			if c := agreed(pass, local, concrete, iface, m); c != nil && m.Pkg() == pass.Pkg {
				pass.ExportObjectFact(m, c)
			}
		}
	}
}

func agreed(pass *analysis.Pass, local map[*types.Func]*callbacks, concrete []types.Type, iface *types.Interface, m *types.Func) *callbacks {
	var out *callbacks
	for _, t := range concrete {
		if !types.Implements(t, iface) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, pass.Pkg, m.Name())
		impl, ok := obj.(*types.Func)
		if !ok {
			return nil
		}
		c := local[impl]
		if c == nil {
			return nil
		}
		if out == nil {
			out = &callbacks{InPlace: c.InPlace, Retried: c.Retried}
			continue
		}
		out = &callbacks{
			InPlace: slices.DeleteFunc(slices.Clone(out.InPlace), func(i int) bool { return !slices.Contains(c.InPlace, i) }),
			Retried: union(out.Retried, c.Retried),
		}
	}
	return out
}

func union(a, b []int) []int {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

// handedLiterals marks the function literals that n hands to a parameter
// its callee calls in place or retries (by the callee's fact): directly,
// in a struct literal, or in a field of a local struct variable set
// before the call. They are reached the way n is, not out of view.
func (b *builder) handedLiterals(n ast.Node) {
	info := b.pass.TypesInfo
	var locals map[*types.Var][]*ast.FuncLit // localLiterals of n, once
	ast.Inspect(body(n), func(m ast.Node) bool {
		if _, ok := m.(*ast.FuncLit); ok {
			return false // its own collect sees its calls
		}
		call, ok := m.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := calleeFunc(info, call)
		if fn == nil {
			return true
		}
		c := b.callbacks[fn]
		if c == nil {
			c = new(callbacks)
			if !b.pass.ImportObjectFact(fn, c) {
				return true
			}
		}
		for j, a := range call.Args {
			u := kept
			switch {
			case slices.Contains(c.InPlace, j):
				u = inPlace
			case slices.Contains(c.Retried, j):
				u = retriedUse
			default:
				continue
			}
			if locals == nil {
				locals = localLiterals(info, n)
			}
			for _, lit := range literalsIn(info, locals, a) {
				b.handed[lit] = u
			}
		}
		return true
	})
}

// literalsIn returns the function literals argument a carries: itself,
// the values of a struct literal, or those set in the fields of the local
// variable a names (locals, from localLiterals).
func literalsIn(info *types.Info, locals map[*types.Var][]*ast.FuncLit, a ast.Expr) []*ast.FuncLit {
	a = ast.Unparen(a)
	if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
		a = ast.Unparen(u.X)
	}
	switch a := a.(type) {
	case *ast.FuncLit:
		return []*ast.FuncLit{a}
	case *ast.CompositeLit:
		return fieldLiterals(a)
	case *ast.Ident:
		if v, ok := info.Uses[a].(*types.Var); ok {
			return locals[v]
		}
	}
	return nil
}

// localLiterals maps each local variable of n to the function literals
// n's assignments put in it: a struct literal's (args := Args{Fn: func…})
// or a field's (args.Fn = func…). One walk of the body, however many
// calls hand the variable on.
func localLiterals(info *types.Info, n ast.Node) map[*types.Var][]*ast.FuncLit {
	out := map[*types.Var][]*ast.FuncLit{}
	local := func(id *ast.Ident) *types.Var {
		obj := info.Defs[id]
		if obj == nil {
			obj = info.Uses[id]
		}
		v, ok := obj.(*types.Var)
		if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return nil
		}
		return v
	}
	ast.Inspect(body(n), func(m ast.Node) bool {
		as, ok := m.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for k, lhs := range as.Lhs {
			rhs := ast.Unparen(as.Rhs[k])
			if u, ok := rhs.(*ast.UnaryExpr); ok && u.Op == token.AND {
				rhs = ast.Unparen(u.X)
			}
			switch lhs := ast.Unparen(lhs).(type) {
			case *ast.Ident:
				if cl, ok := rhs.(*ast.CompositeLit); ok {
					if v := local(lhs); v != nil {
						out[v] = append(out[v], fieldLiterals(cl)...)
					}
				}
			case *ast.SelectorExpr:
				if id, ok := ast.Unparen(lhs.X).(*ast.Ident); ok {
					if lit, ok := rhs.(*ast.FuncLit); ok {
						if v, ok := info.Uses[id].(*types.Var); ok && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
							out[v] = append(out[v], lit)
						}
					}
				}
			}
		}
		return true
	})
	return out
}

func fieldLiterals(cl *ast.CompositeLit) []*ast.FuncLit {
	var out []*ast.FuncLit
	for _, elt := range cl.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			elt = kv.Value
		}
		if lit, ok := ast.Unparen(elt).(*ast.FuncLit); ok {
			out = append(out, lit)
		}
	}
	return out
}
