// Package reach computes how the functions of a package can be entered,
// which decides whether an invocation can be repeated for the same intent:
// from a redeliverable entry (a broker delivery, a queued job, a webhook
// the sender retries), from a request or a command line (nothing the
// process can see repeats it), from callers out of view, or from a loop
// that repeats a call until it succeeds. Rules list Analyzer in Requires
// and read the Result.
//
// Entries are known by the type of what they handle (the key model's
// entry types) and by a webhook signature check, never by names. Within a
// package, a function inherits the entries of every function that calls
// it, refers to it, or (for a function literal) encloses it.
package reach

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// Analyzer computes the Result for a package.
var Analyzer = &analysis.Analyzer{
	Name:       "reach",
	Doc:        "how the functions of a package are entered (redelivered, requested, out of view, retried); shared by the idemcheck rules",
	Requires:   []*analysis.Analyzer{inspect.Analyzer, keymodel.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*callbacks)(nil)},
}

// Via is a set of ways a function can be reached.
type Via uint8

const (
	// Redelivery: from a broker delivery, a queued job or a webhook.
	Redelivery Via = 1 << iota
	// Request: from an HTTP route, a command line, main or init.
	Request
	// OutOfView: from callers this package cannot see (an exported
	// function, a function handed to another package, or one nothing
	// here calls).
	OutOfView
	// Retry: from a call inside a loop that repeats until it succeeds.
	Retry
)

// MayRepeat reports whether an invocation reached this way can run again
// for the same intent, or may be: a redelivery, a retry, or callers out
// of view.
func (v Via) MayRepeat() bool { return v&(Redelivery|Retry|OutOfView) != 0 }

// Result is how each function of the package is reached.
type Result struct {
	info  *types.Info
	files []*ast.File
	via   map[ast.Node]Via // *ast.FuncDecl or *ast.FuncLit
	funcs []ast.Node       // in source order
	// retriedLits are function literals handed to a function of the
	// package that calls them in a retry loop (retry(3, func() error {…})).
	retriedLits map[*ast.FuncLit]bool
	callers     map[ast.Node][]ast.Node // the reverse of the edges
	objs        map[ast.Node]*types.Func
	// exportedOnly are the functions out of view only because they are
	// exported (other packages may call them); handedAway, those out of
	// view for another reason (a function value, a literal not called
	// where it is written, a function nothing calls). entered are the
	// entries by what they handle: no caller out of view passes them.
	exportedOnly, handedAway, entered map[ast.Node]bool
}

// ExportedReaching returns the exported functions of the package from
// which the function holding pos is reached here (itself included): the
// ones callers in other packages can call to get there.
func (r *Result) ExportedReaching(pos token.Pos) []*types.Func {
	start := r.funcAt(pos)
	if start == nil {
		return nil
	}
	seen := map[ast.Node]bool{start: true}
	work := []ast.Node{start}
	var out []*types.Func
	for len(work) > 0 {
		n := work[0]
		work = work[1:]
		if fn := r.objs[n]; fn != nil && fn.Exported() {
			out = append(out, fn)
		}
		for _, c := range r.callers[n] {
			if !seen[c] {
				seen[c] = true
				work = append(work, c)
			}
		}
	}
	return out
}

// CalledInView reports whether fn, a function of the package, is called
// (or referred to) by a function of the package.
func (r *Result) CalledInView(fn *types.Func) bool {
	for n, obj := range r.objs {
		if obj == fn {
			return len(r.callers[n]) > 0
		}
	}
	return false
}

// OutOfViewThrough returns the exported functions through which callers
// out of view reach the function holding pos, when they are the only way
// in from out of view: the packages that import this one can then tell
// whether a caller repeats the call. ok is false when nothing out of view
// reaches it, or something else does (a function value handed away, a
// literal not called where it is written, a function nothing here calls).
func (r *Result) OutOfViewThrough(pos token.Pos) (fns []*types.Func, ok bool) {
	start := r.funcAt(pos)
	if start == nil {
		return nil, false
	}
	seen := map[ast.Node]bool{start: true}
	work := []ast.Node{start}
	for len(work) > 0 {
		n := work[0]
		work = work[1:]
		if r.entered[n] {
			continue // whoever calls an entry is its broker or server
		}
		if r.handedAway[n] {
			return nil, false
		}
		if r.exportedOnly[n] {
			if fn := r.objs[n]; fn != nil {
				fns = append(fns, fn)
			}
		}
		for _, c := range r.callers[n] {
			if !seen[c] {
				seen[c] = true
				work = append(work, c)
			}
		}
	}
	return fns, len(fns) > 0
}

// OnlyOutOfViewThrough is OutOfViewThrough for code that nothing in view
// reaches otherwise: no entry (a route, a consumer, main) of this package
// leads to it, only the exported functions it returns.
func (r *Result) OnlyOutOfViewThrough(pos token.Pos) ([]*types.Func, bool) {
	if r.At(pos) != OutOfView {
		return nil, false
	}
	return r.OutOfViewThrough(pos)
}

// Of returns the result computed for the pass.
func Of(pass *analysis.Pass) *Result { return pass.ResultOf[Analyzer].(*Result) }

// At returns how the innermost function holding pos is reached; 0 when
// pos is in no function of the package.
func (r *Result) At(pos token.Pos) Via {
	if n := r.funcAt(pos); n != nil {
		return r.via[n]
	}
	return 0
}

func (r *Result) funcAt(pos token.Pos) ast.Node {
	var best ast.Node
	for _, n := range r.funcs {
		if n.Pos() <= pos && pos < n.End() && (best == nil || n.Pos() >= best.Pos()) {
			best = n
		}
	}
	return best
}

// RetryScope returns the innermost part of the code holding pos that a
// retry repeats while what is outside it runs once: a retry loop of the
// function holding pos, or else that function itself when it is a literal
// handed to a helper of the package that calls it in a retry loop.
func (r *Result) RetryScope(pos token.Pos) (ast.Node, bool) {
	if l, ok := r.RetryLoop(pos); ok {
		return l, true
	}
	if lit, ok := r.funcAt(pos).(*ast.FuncLit); ok && r.retriedLits[lit] {
		return lit, true
	}
	return nil, false
}

// RetryLoop returns the innermost loop of the function holding pos that
// holds pos and repeats until something succeeds (see isRetryLoop).
func (r *Result) RetryLoop(pos token.Pos) (ast.Node, bool) {
	fn := r.funcAt(pos)
	if fn == nil {
		return nil, false
	}
	var found ast.Node
	ast.Inspect(body(fn), func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if isLoop(n) && isRetryLoop(r.info, n) {
			found = n
		}
		return true
	})
	return found, found != nil
}

func body(fn ast.Node) *ast.BlockStmt {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Body
	case *ast.FuncLit:
		return fn.Body
	}
	return nil
}

func isLoop(n ast.Node) bool {
	switch n.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
		return true
	}
	return false
}

// isRetryLoop reports a loop that ends when something succeeds: its
// condition tests an error against nil (for err != nil && i < 3), or its
// body leaves it (break or return) on a nil error. A loop over items that
// stops at the first failure is not one: there, success goes on.
func isRetryLoop(info *types.Info, loop ast.Node) bool {
	var b *ast.BlockStmt
	switch l := loop.(type) {
	case *ast.ForStmt:
		if l.Cond != nil && testsError(info, l.Cond, token.NEQ) {
			return true
		}
		b = l.Body
	case *ast.RangeStmt:
		b = l.Body
	}
	retry := false
	ast.Inspect(b, func(n ast.Node) bool {
		if retry {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if testsError(info, n.Cond, token.EQL) && leaves(n.Body) {
				retry = true
			}
			if testsError(info, n.Cond, token.NEQ) && n.Else != nil && leaves(n.Else) {
				retry = true
			}
		}
		return true
	})
	return retry
}

// testsError reports a condition holding a comparison of an error with
// nil by op (err == nil, err != nil), alone or in a conjunction.
func testsError(info *types.Info, cond ast.Expr, op token.Token) bool {
	switch c := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if c.Op == token.LAND {
			return testsError(info, c.X, op) || testsError(info, c.Y, op)
		}
		if c.Op != op {
			return false
		}
		return isNil(info, c.Y) && isError(info, c.X) || isNil(info, c.X) && isError(info, c.Y)
	}
	return false
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

func isError(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// leaves reports a block that leaves the loop it is in: a break that is
// not inside a nested loop, switch or select, or a return.
func leaves(s ast.Stmt) bool {
	out := false
	var walk func(n ast.Node, nested bool) bool
	walk = func(n ast.Node, nested bool) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = true
		case *ast.BranchStmt:
			if n.Tok == token.BREAK && (!nested || n.Label != nil) || n.Tok == token.GOTO {
				out = true
			}
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			ast.Inspect(n, func(m ast.Node) bool {
				if m == n {
					return true
				}
				return walk(m, true)
			})
			return false
		}
		return !out
	}
	ast.Inspect(s, func(n ast.Node) bool { return n != nil && walk(n, false) })
	return out
}

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	b := &builder{
		pass:  pass,
		model: keymodel.Of(pass),
		decls: map[*types.Func]*ast.FuncDecl{},
		r: &Result{info: pass.TypesInfo, files: pass.Files, via: map[ast.Node]Via{}, retriedLits: map[*ast.FuncLit]bool{},
			callers: map[ast.Node][]ast.Node{}, objs: map[ast.Node]*types.Func{},
			exportedOnly: map[ast.Node]bool{}, handedAway: map[ast.Node]bool{}},
		edges: map[ast.Node][]edge{},
		refd:  map[ast.Node]bool{},

		entered: map[ast.Node]bool{},
		handed:  map[*ast.FuncLit]use{},
	}
	for cur := range ins.Root().Preorder((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		n := cur.Node()
		if fd, ok := n.(*ast.FuncDecl); ok {
			if fd.Body == nil {
				continue
			}
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				b.decls[fn] = fd
				b.r.objs[fd] = fn
			}
		}
		b.r.funcs = append(b.r.funcs, n)
	}
	retried := retriedParams(pass.TypesInfo, b.decls)
	b.callbacks = callbackUses(pass, b.decls)
	for _, n := range b.r.funcs {
		b.handedLiterals(n)
	}
	for _, n := range b.r.funcs {
		b.collect(n, retried)
	}
	for _, n := range b.r.funcs {
		if b.r.via[n]&OutOfView != 0 {
			b.r.handedAway[n] = true // a function value or a literal, from collect
		}
		b.r.via[n] |= b.own(n)
		if b.entered[n] {
			// Whoever calls a function that takes a delivery or a
			// request is the broker's client or the server: no
			// caller out of view needs guessing.
			b.r.via[n] &^= OutOfView
		}
	}
	b.r.entered = b.entered
	b.propagate()
	return b.r, nil
}

type edge struct {
	to    ast.Node
	retry bool
}

type builder struct {
	pass  *analysis.Pass
	model *keymodel.Model
	decls map[*types.Func]*ast.FuncDecl
	r     *Result
	edges map[ast.Node][]edge
	refd  map[ast.Node]bool // functions something here calls or refers to
	// entered are the functions that are entries by what they handle.
	entered map[ast.Node]bool
	// callbacks are the package's functions' facts (callback.go), and
	// handed the literals given to a parameter whose callee calls it in
	// place or retries it.
	callbacks map[*types.Func]*callbacks
	handed    map[*ast.FuncLit]use
	// handlerIfaces: the interfaces handler frameworks dispatch requests
	// to (keymodel.HandlerInterfaces), read once.
	handlerIfaces     []*types.Interface
	handlerIfacesRead bool
}

// own is how a function is entered by itself: by what it handles, by a
// webhook check, as main or init, or by callers out of view.
func (b *builder) own(n ast.Node) Via {
	var v Via
	var ft *ast.FuncType
	switch n := n.(type) {
	case *ast.FuncDecl:
		ft = n.Type
		fn, _ := b.pass.TypesInfo.Defs[n.Name].(*types.Func)
		switch {
		case n.Recv == nil && (n.Name.Name == "init" || n.Name.Name == "main" && b.pass.Pkg.Name() == "main"):
			v |= Request
		case fn != nil && b.pass.Pkg.Name() != "main" && (fn.Exported() || n.Recv != nil && ast.IsExported(n.Name.Name)):
			v |= OutOfView
			b.r.exportedOnly[n] = true
		case !b.refd[n]:
			v |= OutOfView // nothing here calls it: its callers are elsewhere
			b.r.handedAway[n] = true
		}
	case *ast.FuncLit:
		ft = n.Type
	}
	switch b.entryKind(n, ft) {
	case keymodel.Redelivered:
		v |= Redelivery
		b.entered[n] = true
	case keymodel.Request:
		v |= Request
		b.entered[n] = true
	}
	return v
}

func (b *builder) entryKind(n ast.Node, ft *ast.FuncType) keymodel.EntryKind {
	if b.verifiesWebhook(n) {
		return keymodel.Redelivered
	}
	kind := keymodel.NotEntry
	if b.answersFramework(n) {
		kind = keymodel.Request
	}
	if ft.Params != nil {
		for _, f := range ft.Params.List {
			switch b.model.EntryOf(b.pass.TypesInfo.TypeOf(f.Type)) {
			case keymodel.Redelivered:
				return keymodel.Redelivered
			case keymodel.Request:
				kind = keymodel.Request
			}
		}
	}
	return kind
}

// answersFramework reports a method by which its type implements an
// interface a handler framework's generated code dispatches requests to
// (a gqlgen resolver's mutation, a gRPC server's method): the framework's
// server calls it for a request.
func (b *builder) answersFramework(n ast.Node) bool {
	fd, ok := n.(*ast.FuncDecl)
	if !ok || fd.Recv == nil {
		return false
	}
	fn, ok := b.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv().Type()
	if !b.handlerIfacesRead {
		b.handlerIfaces, b.handlerIfacesRead = keymodel.HandlerInterfaces(b.pass.Pkg), true
	}
	for _, it := range b.handlerIfaces {
		if !hasMethod(it, fn.Name()) {
			continue
		}
		if types.Implements(recv, it) {
			return true
		}
		if _, isPtr := recv.(*types.Pointer); !isPtr && types.Implements(types.NewPointer(recv), it) {
			return true
		}
	}
	return false
}

func hasMethod(it *types.Interface, name string) bool {
	for i := 0; i < it.NumMethods(); i++ {
		if it.Method(i).Name() == name {
			return true
		}
	}
	return false
}

func (b *builder) verifiesWebhook(n ast.Node) bool {
	found := false
	ast.Inspect(body(n), func(m ast.Node) bool {
		if found {
			return false
		}
		if _, lit := m.(*ast.FuncLit); lit {
			return false
		}
		if call, ok := m.(*ast.CallExpr); ok {
			if fn := calleeFunc(b.pass.TypesInfo, call); fn != nil && fn.Pkg() != nil {
				if b.model.VerifiesWebhook(fn.Pkg().Path(), keymodel.RecvName(fn), fn.Name()) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// collect records the edges out of function n: the functions of the
// package it calls or refers to, the literals it encloses, and the local
// methods an interface call may reach. A function handed to a call of
// another package, or stored away, is also called out of view.
func (b *builder) collect(n ast.Node, retried map[*types.Func]map[int]bool) {
	info := b.pass.TypesInfo
	loops := retryLoops(info, n)
	called := map[ast.Node]bool{} // callee names, and what local calls are given
	ast.Inspect(body(n), func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncLit:
			b.addEdge(n, m, false)
			switch u, handed := b.handed[m]; {
			case handed && u == retriedUse:
				b.r.via[m] |= Retry
				b.r.retriedLits[m] = true
			case handed || called[m]:
			default:
				b.r.via[m] |= OutOfView
			}
			return false
		case *ast.CallExpr:
			if id := identOf(calleeExpr(m)); id != nil {
				called[id] = true
			}
			if lit, ok := ast.Unparen(m.Fun).(*ast.FuncLit); ok {
				called[lit] = true
			}
			fn := calleeFunc(info, m)
			if fn == nil {
				return true
			}
			retry := false
			for _, l := range loops {
				if l.Pos() <= m.Pos() && m.Pos() < l.End() {
					retry = true
				}
			}
			for _, to := range b.targets(fn) {
				b.addEdge(n, to, retry)
			}
			if b.decls[fn] != nil {
				for i, a := range m.Args {
					a = ast.Unparen(a)
					if lit, ok := a.(*ast.FuncLit); ok && retried[fn][i] {
						b.r.retriedLits[lit] = true
					}
					if id := identOf(a); id != nil {
						called[id] = true
					}
					called[a] = true
				}
			}
		case *ast.Ident:
			fn, ok := info.Uses[m].(*types.Func)
			if !ok {
				return true
			}
			if d := b.decls[fn.Origin()]; d != nil && !called[m] {
				// A function value: called by whoever holds it.
				b.addEdge(n, d, false)
				b.r.via[d] |= OutOfView
			}
		}
		return true
	})
}

// retriedParams returns, for the functions of the package, the indexes of
// their function-typed parameters they call inside a retry loop.
func retriedParams(info *types.Info, decls map[*types.Func]*ast.FuncDecl) map[*types.Func]map[int]bool {
	out := map[*types.Func]map[int]bool{}
	for fn, d := range decls {
		sig := fn.Type().(*types.Signature)
		for _, l := range retryLoops(info, d) {
			ast.Inspect(l, func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok {
					return true
				}
				id, ok := ast.Unparen(call.Fun).(*ast.Ident)
				if !ok {
					return true
				}
				for i := 0; i < sig.Params().Len(); i++ {
					if info.Uses[id] == sig.Params().At(i) {
						if out[fn] == nil {
							out[fn] = map[int]bool{}
						}
						out[fn][i] = true
					}
				}
				return true
			})
		}
	}
	return out
}

// retryLoops returns the retry loops of function n, outside its literals.
func retryLoops(info *types.Info, n ast.Node) []ast.Node {
	var out []ast.Node
	ast.Inspect(body(n), func(m ast.Node) bool {
		if _, lit := m.(*ast.FuncLit); lit {
			return false
		}
		if m != nil && isLoop(m) && isRetryLoop(info, m) {
			out = append(out, m)
		}
		return true
	})
	return out
}

func calleeExpr(call *ast.CallExpr) ast.Expr {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		return f.X
	case *ast.IndexListExpr:
		return f.X
	}
	return fun
}

// targets are the functions of the package a call of fn may run.
func (b *builder) targets(fn *types.Func) []ast.Node {
	if d := b.decls[fn.Origin()]; d != nil {
		return []ast.Node{d}
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return nil
	}
	iface, ok := sig.Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []ast.Node
	for m, d := range b.decls {
		ms, _ := m.Type().(*types.Signature)
		if m.Name() != fn.Name() || ms == nil || ms.Recv() == nil {
			continue
		}
		rt := ms.Recv().Type()
		if types.Implements(rt, iface) || types.Implements(types.NewPointer(rt), iface) {
			out = append(out, d)
		}
	}
	return out
}

func (b *builder) addEdge(from, to ast.Node, retry bool) {
	b.edges[from] = append(b.edges[from], edge{to, retry})
	b.r.callers[to] = append(b.r.callers[to], from)
	b.refd[to] = true
}

// propagate gives every function the ways of reaching its callers, to a
// fixed point: the sets only grow, and there are four bits.
func (b *builder) propagate() {
	work := append([]ast.Node(nil), b.r.funcs...)
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range b.edges[n] {
			v := b.r.via[n]
			if e.retry {
				v |= Retry
			}
			if b.entered[e.to] {
				v &^= OutOfView
			}
			if b.r.via[e.to]|v != b.r.via[e.to] {
				b.r.via[e.to] |= v
				work = append(work, e.to)
			}
		}
	}
}

func identOf(e ast.Expr) *ast.Ident {
	switch e := e.(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}

// calleeFunc is the function or method a call names, if static or an
// interface method.
func calleeFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	id := identOf(calleeExpr(call))
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}
