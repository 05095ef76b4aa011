// Package keyflow finds where idempotency keys are built in a function and
// walks backwards from each of them over the expressions that flow into the
// key. IDEM003 (floats), IDEM004 (whole payloads) and IDEM005 (bare digests)
// are checks on that backward slice.
//
// The slice is intraprocedural and flow-insensitive: a local variable stands
// for every value ever assigned to it in the function (closures included,
// since captured variables are the same objects). It is deliberately
// field-sensitive (p.ID does not drag in p.Amount) and treats values whose
// origin it cannot see (parameters, fields of call results, rows read with
// Scan) as opaque, so the checks stay quiet where the analysis is blind.
package keyflow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// Sink is a place where a value becomes an idempotency key.
type Sink struct {
	Value ast.Expr  // the value that becomes the key
	Pos   token.Pos // where it becomes the key
	What  string    // e.g. "variable idemKey", "Idempotency-Key header"
}

// Func is one top-level function with the local data flow of its body.
type Func struct {
	Decl  *ast.FuncDecl
	Obj   *types.Func // nil for methods of unnamed types
	Sinks []Sink
	// KeyFunc is set when the function is named like a key: its results
	// are keys.
	KeyFunc bool

	model   *keymodel.Model
	names   map[types.Object]ast.Expr // package-level variables assigned once
	info    *types.Info
	defs    map[types.Object][]ast.Expr // whole-value assignments
	fields  map[fieldRef][]ast.Expr     // v.a.b = e
	writers map[types.Object][]ast.Expr // values written into v (h.Write(x), fmt.Fprint(v, x))
	decoded map[types.Object][]ast.Expr // what v was decoded from (json.Unmarshal(data, &v), dec.Decode(&v)): every field of v
	elems   map[types.Object][]ast.Expr // v[i] = e, *v = e

	// paramSinks' memo: the parameters by object, those found to reach a
	// key, and how many of Sinks were walked to find them.
	params      map[types.Object]int
	paramHit    map[int]bool
	paramIdx    []int
	walkedSinks int
}

type fieldRef struct {
	obj  types.Object
	path string
}

// Package is the local data flow of every function declaration of a
// package.
type Package struct {
	All   []*Func // in source order
	ByObj map[*types.Func]*Func
}

// Analyzer computes the key sites of a package once (Load), for every rule
// that reads them: IDEM003, IDEM004 and IDEM005 require it rather than each
// recomputing them.
var Analyzer = &analysis.Analyzer{
	Name:     "keyflow",
	Doc:      "the key sites of a package (where values become keys, and the flows into them) that the AST-based idemcheck rules share",
	Requires: []*analysis.Analyzer{inspect.Analyzer, keymodel.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		return Load(pass, pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)), nil
	},
	ResultType: reflect.TypeOf((*Package)(nil)),
}

// Of returns the key sites computed for the pass; the analyzer must list
// Analyzer in Requires. Rules must not modify it.
func Of(pass *analysis.Pass) *Package { return pass.ResultOf[Analyzer].(*Package) }

// Load builds the data flow of every function of the package. A parameter
// that reaches a key inside a function of the package makes the matching
// argument of every call to that function a key too (computed to a fixed
// point, so helpers of helpers count).
func Load(pass *analysis.Pass, ins *inspector.Inspector) *Package {
	p := &Package{ByObj: map[*types.Func]*Func{}}
	model := keymodel.Of(pass)
	names := packageNames(pass)
	for cur := range ins.Root().Preorder((*ast.FuncDecl)(nil)) {
		decl := cur.Node().(*ast.FuncDecl)
		if decl.Body == nil {
			continue
		}
		f := build(pass.TypesInfo, model, names, decl)
		p.All = append(p.All, f)
		if fn, ok := pass.TypesInfo.Defs[decl.Name].(*types.Func); ok {
			f.Obj = fn
			p.ByObj[fn] = f
		}
	}
	propagateParamSinks(p.All, p.ByObj)
	return p
}

// WithSinks returns the functions that build at least one key.
func (p *Package) WithSinks() []*Func {
	var out []*Func
	for _, f := range p.All {
		if len(f.Sinks) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// Funcs returns the functions of the package that build at least one key,
// in source order.
func Funcs(pass *analysis.Pass, ins *inspector.Inspector) []*Func {
	return Load(pass, ins).WithSinks()
}

// Summarize computes a per-function summary of helpers, to a fixed point:
// summarize looks at a function (typically at the backward slice of its
// Results) knowing the summaries found so far, and returns "" for none.
// Functions named like a key are skipped: their results are sinks, checked
// where they are built, so a summary would report the same problem twice.
func (p *Package) Summarize(summarize func(f *Func, known map[*types.Func]string) string) map[*types.Func]string {
	known := map[*types.Func]string{}
	for changed := true; changed; {
		changed = false
		for _, f := range p.All {
			if f.Obj == nil || known[f.Obj] != "" || f.KeyFunc {
				continue
			}
			if s := summarize(f, known); s != "" {
				known[f.Obj] = s
				changed = true
			}
		}
	}
	return known
}

// Results returns the expressions the function returns (not those of its
// closures).
func (f *Func) Results() []ast.Expr {
	var out []ast.Expr
	ast.Inspect(f.Decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = append(out, n.Results...)
		}
		return true
	})
	return out
}

// ParamIndex returns the index of the parameter id names, or -1.
func (f *Func) ParamIndex(id *ast.Ident) int {
	obj := f.info.ObjectOf(id)
	if obj == nil {
		return -1
	}
	i := 0
	for _, fld := range f.Decl.Type.Params.List {
		if len(fld.Names) == 0 {
			i++
			continue
		}
		for _, n := range fld.Names {
			if f.info.Defs[n] == obj {
				return i
			}
			i++
		}
	}
	return -1
}

// propagateParamSinks adds call arguments as sinks when the callee's
// parameter reaches a key. It is a worklist over the package's call sites,
// found once: a function whose parameters newly reach a key revisits only
// its callers' calls, so a chain of n helpers costs n steps, not n passes
// over every body (which made a 5,000-helper chain quadratic).
func propagateParamSinks(all []*Func, byObj map[*types.Func]*Func) {
	type site struct {
		caller *Func
		call   *ast.CallExpr
		fn     *types.Func
	}
	callers := map[*Func][]site{}
	for _, f := range all {
		ast.Inspect(f.Decl.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				fn := Callee(f.info, call)
				if callee := byObj[fn]; callee != nil {
					callers[callee] = append(callers[callee], site{f, call, fn})
				}
			}
			return true
		})
	}
	built := map[*Func]int{} // sinks a function had before propagation
	var work []*Func
	queued := map[*Func]bool{}
	for _, f := range all {
		built[f] = len(f.Sinks)
		if len(f.paramSinks()) > 0 {
			work = append(work, f)
			queued[f] = true
		}
	}
	added := map[ast.Expr]bool{}
	for len(work) > 0 {
		callee := work[0]
		work = work[1:]
		queued[callee] = false
		for _, s := range callers[callee] {
			grew := false
			for _, i := range callee.paramSinks() {
				if i < len(s.call.Args) && !added[s.call.Args[i]] {
					added[s.call.Args[i]] = true
					s.caller.addSink(s.call.Args[i], s.call.Args[i].Pos(), "argument of "+s.fn.Name()+" that becomes its idempotency key")
					grew = true
				}
			}
			if grew && !queued[s.caller] {
				work = append(work, s.caller)
				queued[s.caller] = true
			}
		}
	}
	// The propagated sinks in source order, whatever order the worklist
	// found them in, so rules report the same way on every run.
	for _, f := range all {
		extra := f.Sinks[built[f]:]
		sort.SliceStable(extra, func(i, j int) bool { return extra[i].Pos < extra[j].Pos })
	}
}

// KeyArgs returns the arguments of calls in f to functions of the package
// whose parameter reaches a key inside the callee, mapped to that
// parameter: the callee checks what the parameter carries where it uses it.
func (p *Package) KeyArgs(f *Func) map[ast.Expr]*types.Var {
	out := map[ast.Expr]*types.Var{}
	ast.Inspect(f.Decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := Callee(f.info, call)
		callee := p.ByObj[fn]
		if callee == nil {
			return true
		}
		sig := fn.Type().(*types.Signature)
		for _, i := range callee.paramSinks() {
			if i < len(call.Args) && i < sig.Params().Len() {
				out[ast.Unparen(call.Args[i])] = sig.Params().At(i)
			}
		}
		return true
	})
	return out
}

// paramSinks returns the indexes of the parameters that reach a key. It
// walks only the sinks added since its last call: propagation asks again
// every time a callee's parameters grow.
func (f *Func) paramSinks() []int {
	if f.params == nil {
		f.params = map[types.Object]int{}
		f.paramHit = map[int]bool{}
		i := 0
		for _, fld := range f.Decl.Type.Params.List {
			if len(fld.Names) == 0 {
				i++
				continue
			}
			for _, n := range fld.Names {
				if obj := f.info.Defs[n]; obj != nil {
					f.params[obj] = i
				}
				i++
			}
		}
	}
	if f.walkedSinks == len(f.Sinks) && f.paramIdx != nil {
		return f.paramIdx
	}
	for _, s := range f.Sinks[f.walkedSinks:] {
		f.Walk(s.Value, func(e ast.Expr) bool {
			if id, ok := e.(*ast.Ident); ok {
				if idx, ok := f.params[f.info.ObjectOf(id)]; ok {
					f.paramHit[idx] = true
				}
			}
			return true
		})
	}
	f.walkedSinks = len(f.Sinks)
	out := []int{}
	for idx := range f.paramHit {
		out = append(out, idx)
	}
	slices.Sort(out)
	f.paramIdx = out
	return out
}

func build(info *types.Info, model *keymodel.Model, names map[types.Object]ast.Expr, decl *ast.FuncDecl) *Func {
	f := &Func{
		Decl:    decl,
		model:   model,
		names:   names,
		info:    info,
		defs:    map[types.Object][]ast.Expr{},
		fields:  map[fieldRef][]ast.Expr{},
		writers: map[types.Object][]ast.Expr{},
		decoded: map[types.Object][]ast.Expr{},
		elems:   map[types.Object][]ast.Expr{},
	}
	f.KeyFunc = f.IsKeyName(decl.Name.Name) && !f.lookupByKey(decl)
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			f.assign(n)
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if i < len(n.Values) {
					f.def(name, n.Values[i])
				} else if len(n.Values) == 1 {
					f.def(name, n.Values[0])
				}
			}
		case *ast.RangeStmt:
			if n.Value != nil {
				f.def(n.Value, n.X)
			}
		case *ast.CallExpr:
			f.call(n)
		case *ast.CompositeLit:
			f.literalSinks(n)
		}
		return true
	})
	if f.KeyFunc {
		f.returnSinks(decl)
	}
	return f
}

// returnSinks records the results of a function named like a key,
// skipping returns that belong to closures.
func (f *Func) returnSinks(decl *ast.FuncDecl) {
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if keyType(f.info.TypeOf(r)) {
					f.addSink(r, r.Pos(), "result of "+decl.Name.Name)
				}
			}
		}
		return true
	}
	ast.Inspect(decl.Body, visit)
}

func (f *Func) assign(n *ast.AssignStmt) {
	for i, lhs := range n.Lhs {
		var rhs ast.Expr
		switch {
		case len(n.Lhs) == len(n.Rhs):
			rhs = n.Rhs[i]
		case len(n.Rhs) == 1:
			rhs = n.Rhs[0]
		default:
			continue
		}
		f.def(lhs, rhs)
		f.assignSink(lhs, rhs, n.Tok)
	}
}

// def records that rhs flows into lhs.
func (f *Func) def(lhs, rhs ast.Expr) {
	lhs = ast.Unparen(lhs)
	switch l := lhs.(type) {
	case *ast.Ident:
		if obj := f.obj(l); obj != nil {
			f.defs[obj] = append(f.defs[obj], rhs)
		}
		if f.IsKeyName(l.Name) && keyType(f.info.TypeOf(l)) {
			f.addSink(rhs, rhs.Pos(), "variable "+l.Name)
		}
	case *ast.SelectorExpr:
		if root, path := f.selPath(l); root != nil {
			f.fields[fieldRef{root, path}] = append(f.fields[fieldRef{root, path}], rhs)
		}
	case *ast.IndexExpr:
		if root := f.rootObj(l.X); root != nil {
			f.elems[root] = append(f.elems[root], rhs)
		}
	case *ast.StarExpr:
		if root := f.rootObj(l.X); root != nil {
			f.elems[root] = append(f.elems[root], rhs)
		}
	}
}

// assignSink recognises key fields and header entries on the left of an
// assignment.
func (f *Func) assignSink(lhs, rhs ast.Expr, tok token.Token) {
	switch l := ast.Unparen(lhs).(type) {
	case *ast.SelectorExpr:
		if (f.IsKeyName(l.Sel.Name) || f.keyOfRecord(l.X, l.Sel.Name)) && keyType(f.info.TypeOf(l)) {
			f.addSink(rhs, rhs.Pos(), "field "+l.Sel.Name)
		} else if v, ok := f.info.Uses[l.Sel].(*types.Var); ok && v.IsField() && f.sinkField(v) {
			f.addSink(rhs, rhs.Pos(), "field "+l.Sel.Name)
		}
	case *ast.IndexExpr:
		if isHTTPHeader(f.info.TypeOf(l.X)) {
			if name, ok := f.stringValue(l.Index); ok && f.model.IsHeader(name) {
				f.addSink(rhs, rhs.Pos(), name+" header")
			}
		} else if name, ok := f.stringValue(l.Index); ok && f.IsKeyName(name) {
			f.addSink(rhs, rhs.Pos(), "map entry "+name)
		}
	}
}

// sinkField reports a field the key model names as a key sink.
func (f *Func) sinkField(v *types.Var) bool {
	pkg := ""
	if v.Pkg() != nil {
		pkg = v.Pkg().Path()
	}
	return f.model.SinkField(pkg, v.Name())
}

func (f *Func) literalSinks(lit *ast.CompositeLit) {
	t := f.info.TypeOf(lit)
	if t == nil {
		return
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch t.Underlying().(type) {
		case *types.Struct:
			if id, ok := kv.Key.(*ast.Ident); ok && (f.IsKeyName(id.Name) || keymodel.RecordKeyField(t, id.Name)) && keyType(f.info.TypeOf(kv.Value)) {
				f.addSink(kv.Value, kv.Value.Pos(), "field "+id.Name)
			}
		case *types.Map:
			if name, ok := f.stringValue(kv.Key); ok && (f.IsKeyName(name) || isHTTPHeader(t) && f.model.IsHeader(name)) {
				f.addSink(kv.Value, kv.Value.Pos(), "map entry "+name)
			}
		}
	}
}

// call records writes through io.Writers and hashes, decoding into
// variables, and calls that take a key.
func (f *Func) call(call *ast.CallExpr) {
	fn := Callee(f.info, call)
	// Methods that write into their receiver: h.Write(b), sb.WriteString(s).
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && isWriteMethod(sel.Sel.Name) {
		if root := f.rootObj(sel.X); root != nil {
			f.writers[root] = append(f.writers[root], call.Args...)
		}
	}
	// A writer passed as an argument receives the other arguments:
	// fmt.Fprintf(h, ...), io.WriteString(h, s), binary.Write(h, o, v),
	// and json.NewEncoder(h).Encode(v).
	f.writerArgs(call, call)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if inner, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok {
			f.writerArgs(inner, call)
		}
	}
	// Decoding into a variable: json.Unmarshal(data, &v).
	if fn != nil && fn.Pkg() != nil && strings.HasPrefix(fn.Name(), "Unmarshal") && len(call.Args) == 2 {
		if u, ok := ast.Unparen(call.Args[1]).(*ast.UnaryExpr); ok && u.Op == token.AND {
			if root := f.rootObj(u.X); root != nil {
				f.defs[root] = append(f.defs[root], call.Args[0])
				f.decoded[root] = append(f.decoded[root], call.Args[0])
			}
		}
	}
	// A decoder filling a variable: json.NewDecoder(r.Body).Decode(&v).
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Decode" && len(call.Args) == 1 {
		if u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr); ok && u.Op == token.AND {
			if root := f.rootObj(u.X); root != nil {
				f.decoded[root] = append(f.decoded[root], sel.X)
			}
		}
	}
	if fn == nil {
		return
	}
	// stripe-go's params.SetIdempotencyKey(key).
	if fn.Name() == "SetIdempotencyKey" && len(call.Args) == 1 {
		f.addSink(call.Args[0], call.Pos(), "SetIdempotencyKey")
	}
	// Any call that passes an Idempotency-Key header name followed by a
	// value sets that header: http.Header.Set/Add, resty's SetHeader,
	// openai-go's option.WithHeader.
	for i := 0; i+1 < len(call.Args); i++ {
		if name, ok := f.stringValue(call.Args[i]); ok && f.model.IsHeader(name) {
			f.addSink(call.Args[i+1], call.Pos(), name+" header")
			break
		}
	}
	// Sink functions of the key model take the key as any argument.
	if fn.Pkg() != nil && fn.Name() != "SetIdempotencyKey" && f.model.SinkCall(fn.Pkg().Path(), keymodel.RecvName(fn), fn.Name()) {
		for _, a := range call.Args {
			f.addSink(a, call.Pos(), fn.Name())
		}
	}
	// A parameter named like a key: charge(ctx, amount, idempotencyKey).
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return
	}
	for i, a := range call.Args {
		p := paramAt(sig, i)
		if p != nil && f.IsKeyName(p.Name()) && keyType(p.Type()) {
			f.addSink(a, a.Pos(), "parameter "+p.Name()+" of "+fn.Name())
		}
	}
}

func paramAt(sig *types.Signature, i int) *types.Var {
	n := sig.Params().Len()
	if n == 0 {
		return nil
	}
	if i >= n-1 && sig.Variadic() {
		return nil
	}
	if i >= n {
		return nil
	}
	return sig.Params().At(i)
}

// writerArgs records that whole (a call taking the writer, or a method
// call on the value that call returned) writes into each io.Writer variable
// among call's arguments.
func (f *Func) writerArgs(call *ast.CallExpr, whole *ast.CallExpr) {
	for _, a := range call.Args {
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok || !isWriter(f.info.TypeOf(id)) {
			continue
		}
		if root := f.obj(id); root != nil {
			f.writers[root] = append(f.writers[root], whole)
		}
	}
}

func (f *Func) addSink(v ast.Expr, pos token.Pos, what string) {
	f.Sinks = append(f.Sinks, Sink{Value: v, Pos: pos, What: what})
}

// obj returns the local variable id denotes, or nil.
func (f *Func) obj(id *ast.Ident) types.Object {
	obj := f.info.ObjectOf(id)
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	if v.Pos() < f.Decl.Pos() || v.Pos() > f.Decl.End() {
		return nil
	}
	return v
}

// rootObj returns the local variable at the root of x.a.b, x[i], *x, &x.
func (f *Func) rootObj(e ast.Expr) types.Object {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return f.obj(x)
		case *ast.SelectorExpr:
			if _, ok := f.info.Selections[x]; !ok {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// selPath splits v.a.b into (v, "a.b") when v is a local variable and
// every step is a field.
func (f *Func) selPath(e *ast.SelectorExpr) (types.Object, string) {
	var parts []string
	var x ast.Expr = e
	for {
		switch s := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			sel, ok := f.info.Selections[s]
			if !ok || sel.Kind() != types.FieldVal {
				return nil, ""
			}
			parts = append([]string{s.Sel.Name}, parts...)
			x = s.X
		case *ast.StarExpr:
			x = s.X
		case *ast.Ident:
			if obj := f.obj(s); obj != nil {
				return obj, strings.Join(parts, ".")
			}
			return nil, ""
		default:
			return nil, ""
		}
	}
}

// maxPathDepth bounds field paths (v.a.b.c…) the walk follows.
const maxPathDepth = 4

// maxSteps bounds the expressions one walk visits, so a pathological
// function costs time proportional to this, not to its size squared.
const maxSteps = 20000

// Visitor is called for every expression on the backward slice of a sink.
// Returning false stops the walk below e.
type Visitor func(e ast.Expr) bool

// Walk visits the expressions that flow into v, each at most once.
func (f *Func) Walk(v ast.Expr, visit Visitor) {
	w := &walker{f: f, visit: visit, seen: map[ast.Expr]bool{}, seenObj: map[fieldRef]bool{}}
	w.walk(v)
}

type walker struct {
	f       *Func
	visit   Visitor
	seen    map[ast.Expr]bool
	seenObj map[fieldRef]bool
}

func (w *walker) walk(e ast.Expr) {
	if e == nil || w.seen[e] || len(w.seen) > maxSteps {
		return
	}
	w.seen[e] = true
	info := w.f.info
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return // constants carry no per-run data
	}
	if !w.visit(e) {
		return
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		w.walk(x.X)
	case *ast.Ident:
		if obj := w.f.obj(x); obj != nil {
			w.object(obj, "")
		}
	case *ast.SelectorExpr:
		if root, path := w.f.selPath(x); root != nil {
			w.object(root, path)
		}
		// Fields of parameters and call results are opaque: walking the
		// whole struct would blame its siblings.
	case *ast.CallExpr:
		w.call(x)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return
		}
		w.walk(x.X)
		w.walk(x.Y)
	case *ast.UnaryExpr:
		w.walk(x.X)
	case *ast.StarExpr:
		w.walk(x.X)
	case *ast.IndexExpr:
		w.walk(x.X)
	case *ast.SliceExpr:
		w.walk(x.X)
	case *ast.TypeAssertExpr:
		w.walk(x.X)
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if _, isMap := underlying(info.TypeOf(x)).(*types.Map); isMap {
					w.walk(kv.Key)
				}
				w.walk(kv.Value)
			} else {
				w.walk(el)
			}
		}
	}
}

// object walks what was assigned to obj (or to obj.path) and written into it.
func (w *walker) object(obj types.Object, path string) {
	if strings.Count(path, ".") >= maxPathDepth {
		return // v = v.next chains would grow the path forever
	}
	ref := fieldRef{obj, path}
	if w.seenObj[ref] {
		return
	}
	w.seenObj[ref] = true
	f := w.f
	if path == "" {
		for _, d := range f.defs[obj] {
			w.walk(d)
		}
		// A whole value includes what was stored in its fields.
		for r, ds := range f.fields {
			if r.obj == obj {
				for _, d := range ds {
					w.walk(d)
				}
			}
		}
		for _, d := range f.writers[obj] {
			w.walk(d)
		}
		for _, d := range f.elems[obj] {
			w.walk(d)
		}
		for _, d := range f.decoded[obj] {
			w.walk(d)
		}
		return
	}
	for r, ds := range f.fields {
		if r.obj == obj && (r.path == path || strings.HasPrefix(path, r.path+".") || strings.HasPrefix(r.path, path+".")) {
			for _, d := range ds {
				w.walk(d)
			}
		}
	}
	for _, d := range f.defs[obj] {
		w.project(d, path)
	}
	// A value decoded from data has every field from that data.
	for _, d := range f.decoded[obj] {
		w.walk(d)
	}
}

// project walks the part of e that ends up in field path of it.
func (w *walker) project(e ast.Expr, path string) {
	first, rest, _ := strings.Cut(path, ".")
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			w.project(x.X, path)
		}
	case *ast.Ident:
		if obj := w.f.obj(x); obj != nil {
			w.object(obj, path)
		}
	case *ast.SelectorExpr:
		if root, p := w.f.selPath(x); root != nil {
			w.object(root, p+"."+path)
		}
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == first {
				if rest == "" {
					w.walk(kv.Value)
				} else {
					w.project(kv.Value, rest)
				}
			}
		}
	}
}

func (w *walker) call(c *ast.CallExpr) {
	info := w.f.info
	if tv, ok := info.Types[c.Fun]; ok && tv.IsType() {
		for _, a := range c.Args {
			w.walk(a) // conversion
		}
		return
	}
	if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
		if _, ok := info.Uses[id].(*types.Builtin); ok {
			if id.Name == "append" || id.Name == "min" || id.Name == "max" {
				for _, a := range c.Args {
					w.walk(a)
				}
			}
			return
		}
	}
	if fn := Callee(info, c); fn != nil && w.f.isBarrier(fn) {
		return
	}
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() != types.FieldVal {
			w.walk(sel.X) // the receiver flows into a method's result
		}
	}
	for _, a := range c.Args {
		w.walk(a)
	}
}

// isBarrier reports calls whose result does not depend on the run's data in
// a way the key checks care about: the key model's barriers
// (configuration, database reads, replay-stable workflow APIs).
func (f *Func) isBarrier(fn *types.Func) bool {
	return fn.Pkg() != nil && f.model.Barrier(fn.Pkg().Path(), keymodel.RecvName(fn), fn.Name())
}

// Callee returns the function or method a call names (nil for calls of
// function values, conversions and builtins).
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn
}

// ---- names and types ----

// IsKeyName reports whether a variable, field, parameter, function or map
// key name says it holds an idempotency key, by the key model (the
// built-in pattern extended by the configuration's key_name).
func (f *Func) IsKeyName(name string) bool { return f.model.IsKey(name) }

// lookupByKey reports a function the key model says reads a record back
// by its key (GetByIdempotencyKey): its results are not keys.
func (f *Func) lookupByKey(decl *ast.FuncDecl) bool {
	fn, ok := f.info.Defs[decl.Name].(*types.Func)
	return ok && fn.Pkg() != nil && f.model.Barrier(fn.Pkg().Path(), keymodel.RecvName(fn), fn.Name())
}

// Model is the key model the function was analyzed with.
func (f *Func) Model() *keymodel.Model { return f.model }

// keyOfRecord reports x.Key where x is an idempotency record (a struct
// type named like IdempotencyRecord, PaymentIntent or DedupEntry).
func (f *Func) keyOfRecord(x ast.Expr, field string) bool {
	return keymodel.RecordKeyField(f.info.TypeOf(x), field)
}

// keyType reports whether a value of type t can be a key: strings, bytes,
// their pointers, and named string/array types such as uuid.UUID.
func keyType(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	case *types.Array:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

func isWriteMethod(name string) bool {
	switch name {
	case "Write", "WriteString", "WriteByte", "WriteRune":
		return true
	}
	return false
}

var writerIface = func() *types.Interface {
	byteSlice := types.NewSlice(types.Typ[types.Byte])
	sig := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewVar(token.NoPos, nil, "p", byteSlice)),
		types.NewTuple(types.NewVar(token.NoPos, nil, "n", types.Typ[types.Int]), types.NewVar(token.NoPos, nil, "err", types.Universe.Lookup("error").Type())),
		false)
	m := types.NewFunc(token.NoPos, nil, "Write", sig)
	return types.NewInterfaceType([]*types.Func{m}, nil).Complete()
}()

func isWriter(t types.Type) bool {
	if t == nil {
		return false
	}
	return types.Implements(t, writerIface) || types.Implements(types.NewPointer(t), writerIface)
}

func isHTTPHeader(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Header"
}

func constString(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

func underlying(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// ---- helpers for the rules ----

// IsFloat reports whether t is float32, float64 or a named float type.
func IsFloat(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// IsInteger reports whether t is an integer type.
func IsInteger(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// FuncPath returns "pkgpath.Name" (or "pkgpath.Type.Name" for methods).
func FuncPath(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return fn.Pkg().Path() + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

// Serializer reports whether call turns whole values into text or bytes
// (json/xml/yaml marshalling, fmt printing, gob/json encoders) and returns
// the arguments it serializes.
func Serializer(info *types.Info, call *ast.CallExpr) ([]ast.Expr, string, bool) {
	fn := Callee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return nil, "", false
	}
	path := fn.Pkg().Path()
	name := fn.Name()
	switch {
	case (path == "encoding/json" || path == "encoding/xml" || strings.HasSuffix(path, "yaml") || strings.HasSuffix(path, "yaml/v2") || strings.HasSuffix(path, "yaml/v3")) && (name == "Marshal" || name == "MarshalIndent") && len(call.Args) > 0:
		return call.Args[:1], shortPkg(path) + "." + name, true
	case (path == "encoding/json" || path == "encoding/gob" || path == "encoding/xml") && name == "Encode" && len(call.Args) == 1:
		return call.Args, shortPkg(path) + " Encode", true
	case path == "fmt" && (strings.HasPrefix(name, "Sprint") || strings.HasPrefix(name, "Fprint") || strings.HasPrefix(name, "Append")):
		args := call.Args
		if strings.HasPrefix(name, "Fprint") || strings.HasPrefix(name, "Append") {
			if len(args) == 0 {
				return nil, "", false
			}
			args = args[1:]
		}
		if strings.HasSuffix(name, "f") && len(args) > 0 {
			args = args[1:]
		}
		return args, "fmt." + name, true
	}
	return nil, "", false
}

func shortPkg(path string) string {
	if i := strings.LastIndex(path, "/"); i >= 0 {
		path = path[i+1:]
	}
	if path == "v2" || path == "v3" {
		return "yaml"
	}
	return path
}

// DefsOf returns the expressions assigned to the local variable id, and
// whether id is a local variable at all (false for parameters and
// package-level variables with no visible assignment).
func (f *Func) DefsOf(id *ast.Ident) ([]ast.Expr, bool) {
	obj := f.obj(id)
	if obj == nil {
		return nil, false
	}
	return f.defs[obj], true
}

// IsParam reports whether id names a parameter or receiver of the function.
func (f *Func) IsParam(id *ast.Ident) bool {
	obj := f.obj(id)
	if obj == nil {
		return false
	}
	check := func(fl *ast.FieldList) bool {
		if fl == nil {
			return false
		}
		for _, fld := range fl.List {
			for _, n := range fld.Names {
				if f.info.Defs[n] == obj {
					return true
				}
			}
		}
		return false
	}
	return check(f.Decl.Recv) || check(f.Decl.Type.Params)
}

// Info exposes the type information of the function's package.
func (f *Func) Info() *types.Info { return f.info }
