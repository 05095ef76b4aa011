package sdkkey

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/reach"
)

// Analyzer reports stripe-go writes without an idempotency key (IDEM002).
var Analyzer = &analysis.Analyzer{
	Name:      Rule.ID,
	Doc:       Rule.Doc(),
	URL:       Rule.URL(),
	Requires:  []*analysis.Analyzer{inspect.Analyzer, keymodel.Analyzer, reach.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{(*UnkeyedParams)(nil), (*heldWrites)(nil), (*heldInDriver)(nil)},
}

func init() {
	keymodel.RegisterFlag(&Analyzer.Flags)
}

// UnkeyedParams is a fact on a function that passes some of its parameters,
// without setting an idempotency key, to a stripe-go write call. Callers
// are then checked as if they called stripe-go themselves.
type UnkeyedParams struct {
	Params []int  // indexes of the parameters, ascending
	Call   string // the stripe-go call reached, e.g. "paymentintent.New"
	Kind   string // what it does: create, charge, refund
}

// AFact implements analysis.Fact.
func (*UnkeyedParams) AFact() {}

func (f *UnkeyedParams) String() string {
	return fmt.Sprintf("unkeyed stripe params %v -> %s", f.Params, f.Call)
}

var stripePath = regexp.MustCompile(`^github\.com/stripe/stripe-go/v(7[2-9]|[89][0-9])(/|$)`)

type funcInfo struct {
	decl *ast.FuncDecl
	fn   *types.Func
}

func run(pass *analysis.Pass) (any, error) {
	if stripePath.MatchString(pass.Pkg.Path()) {
		return nil, nil // stripe-go's own plumbing is where the SDK draws keys
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	model := keymodel.Of(pass)
	var funcs []funcInfo
	for cur := range ins.Root().Preorder((*ast.FuncDecl)(nil)) {
		decl := cur.Node().(*ast.FuncDecl)
		if fn, ok := pass.TypesInfo.Defs[decl.Name].(*types.Func); ok && decl.Body != nil {
			funcs = append(funcs, funcInfo{decl, fn})
		}
	}
	// Facts first, to a fixed point, so helpers declared after their
	// callers are known when the callers are checked.
	local := map[*types.Func]*UnkeyedParams{}
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, fi := range funcs {
		decls[fi.fn] = fi.decl
	}
	for changed := true; changed; {
		changed = false
		for _, fi := range funcs {
			c := &checker{pass: pass, model: model, decl: fi.decl, local: local, decls: decls}
			fact := c.check(false)
			if fact != nil && (local[fi.fn] == nil || !slices.Equal(local[fi.fn].Params, fact.Params)) {
				local[fi.fn] = fact
				changed = true
			}
		}
	}
	for _, fi := range funcs {
		if f := local[fi.fn]; f != nil {
			pass.ExportObjectFact(fi.fn, f)
		}
	}
	if !emit.Enabled(pass, Rule.ID) {
		return nil, nil
	}
	rep := emit.New(pass, Rule.ID)
	for _, fi := range funcs {
		c := &checker{pass: pass, model: model, decl: fi.decl, local: local, rep: rep, decls: decls, reach: reach.Of(pass)}
		c.check(true)
	}
	relayHeld(pass, rep, reach.Of(pass))
	return nil, nil
}

type checker struct {
	pass  *analysis.Pass
	model *keymodel.Model
	decl  *ast.FuncDecl
	local map[*types.Func]*UnkeyedParams
	rep   *emit.Reporter
	decls map[*types.Func]*ast.FuncDecl // the package's functions, for constructors
	depth int                           // constructor nesting, bounded
	reach *reach.Result                 // how the package's functions are entered
}

// check walks the function's write calls; it reports when report is set
// and returns the fact the function earns.
func (c *checker) check(report bool) *UnkeyedParams {
	info := c.pass.TypesInfo
	var fact *UnkeyedParams
	ast.Inspect(c.decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := keyflow.Callee(info, call)
		if fn == nil {
			return true
		}
		indexes, via, kind := c.writeParams(fn, call)
		for _, i := range indexes {
			arg := ast.Unparen(call.Args[i])
			switch origin, param := c.origin(arg); origin {
			case unkeyed:
				if c.unconfirmed(fn, arg) {
					continue
				}
				if report {
					c.report(call, fn, via, kind)
				}
			case fromParam:
				if fact == nil {
					fact = &UnkeyedParams{Call: via, Kind: kind}
				}
				if !slices.Contains(fact.Params, param) {
					fact.Params = append(fact.Params, param)
					slices.Sort(fact.Params)
				}
			}
		}
		return true
	})
	return fact
}

func (c *checker) report(call *ast.CallExpr, fn *types.Func, via, kind string) {
	way := c.repeats(call.Pos())
	if way == never {
		return
	}
	name := shortName(fn)
	if sig := fn.Type().(*types.Signature); sig.Recv() != nil && name == via {
		// sc.V1PaymentIntents.Create reads better than the service type.
		name = types.ExprString(call.Fun)
		via = name
	}
	msg := fmt.Sprintf("%s is called without an idempotency key: stripe-go then draws a random key per call, so a redelivery %s; set params.IdempotencyKey from the frozen intent", name, keymodel.Repeats(kind))
	if name != via {
		msg = fmt.Sprintf("stripe params reach %s through %s without an idempotency key: stripe-go then draws a random key per call, so a redelivery %s; set params.IdempotencyKey from the frozen intent", via, name, keymodel.Repeats(kind))
	}
	if way == ifCallersRepeat {
		if fns, ok := c.reach.OutOfViewThrough(call.Pos()); ok {
			held, handled := c.rep.Hold(call.Pos(), msg, fns, c.reach.CalledInView)
			if held {
				holdFor(c.pass, fns, HeldWrite{Message: msg, Posn: c.rep.FullPosn(call.Pos())})
			}
			if handled {
				return
			}
		}
	}
	c.rep.Report(call.Pos(), msg)
}

// How a call can run again for the same intent.
type repeatWay int

const (
	never           repeatWay = iota // only a route or a command line reaches it
	repeats                          // a redelivery, a retry, or callers out of view that no import can see
	ifCallersRepeat                  // callers out of view only through exported functions
)

// repeats says whether the call at pos can run again for the same
// intent: in a retry loop, or in code a redelivery, a retry or callers out
// of view reach. Only then does a key per call charge twice; from an HTTP
// route or a command line alone, stripe-go's own key covers its retries.
func (c *checker) repeats(pos token.Pos) repeatWay {
	if c.reach == nil {
		return repeats
	}
	if _, ok := c.reach.RetryLoop(pos); ok {
		return repeats
	}
	switch v := c.reach.At(pos); {
	case v == 0 || v&(reach.Redelivery|reach.Retry) != 0:
		return repeats
	case v&reach.OutOfView != 0:
		return ifCallersRepeat
	}
	return never
}

// writeParams returns the argument indexes of call that are stripe params
// sent by a call that acts, the stripe-go call they reach and what it does.
func (c *checker) writeParams(fn *types.Func, call *ast.CallExpr) ([]int, string, string) {
	if fn.Pkg() != nil && stripePath.MatchString(fn.Pkg().Path()) {
		// Only calls that act (create, charge, refund) matter: repeating
		// an update, a delete, a capture, a confirm or a pay charges
		// nothing (keymodel.Acts).
		kind, ok := c.model.Operation(fn.Pkg().Path(), keymodel.RecvName(fn), fn.Name())
		if !ok || !keymodel.Acts(kind) || isParamsMethod(fn) {
			return nil, "", ""
		}
		sig := fn.Type().(*types.Signature)
		var out []int
		for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
			if isParams(sig.Params().At(i).Type()) {
				out = append(out, i)
			}
		}
		return out, shortName(fn), kind
	}
	var fact *UnkeyedParams
	if f := c.local[fn]; f != nil {
		fact = f
	} else {
		var imported UnkeyedParams
		if c.pass.ImportObjectFact(fn, &imported) {
			fact = &imported
		}
	}
	if fact == nil {
		return nil, "", ""
	}
	var out []int
	for _, i := range fact.Params {
		if i < len(call.Args) {
			out = append(out, i)
		}
	}
	return out, fact.Call, fact.Kind
}

// isParamsMethod excludes methods of the params types themselves
// (params.AddMetadata, params.SetIdempotencyKey).
func isParamsMethod(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	return sig.Recv() != nil && isParams(sig.Recv().Type())
}

// isParams reports stripe params types: structs with a promoted
// IdempotencyKey field from stripe.Params.
func isParams(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(p.Elem(), true, nil, "IdempotencyKey")
	v, ok := obj.(*types.Var)
	return ok && v.IsField() && v.Pkg() != nil && stripePath.MatchString(v.Pkg().Path())
}

type originKind int

const (
	unknown   originKind = iota // built elsewhere: stay silent
	keyed                       // an idempotency key is set
	unkeyed                     // built here (or nil) and never keyed
	fromParam                   // the function's own parameter: ask the caller
)

// origin classifies the params argument.
func (c *checker) origin(arg ast.Expr) (originKind, int) {
	info := c.pass.TypesInfo
	if info.Types[arg].IsNil() {
		return unkeyed, 0
	}
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		arg = ast.Unparen(u.X)
	}
	switch x := arg.(type) {
	case *ast.CompositeLit:
		if literalKeyed(x) {
			return keyed, 0
		}
		return unkeyed, 0
	case *ast.Ident:
		v, ok := info.ObjectOf(x).(*types.Var)
		if !ok {
			return unknown, 0
		}
		if i := c.paramIndex(v); i >= 0 {
			if c.keySetOn(v) {
				return keyed, 0
			}
			return fromParam, i
		}
		if v.Parent() == nil || v.Pos() < c.decl.Pos() || v.Pos() > c.decl.End() {
			return unknown, 0
		}
		return c.localOrigin(v)
	}
	return unknown, 0
}

func (c *checker) paramIndex(v *types.Var) int {
	sig, ok := c.pass.TypesInfo.Defs[c.decl.Name].Type().(*types.Signature)
	if !ok {
		return -1
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i) == v {
			return i
		}
	}
	return -1
}

// localOrigin decides for a local params variable: keyed if the key is set
// anywhere in the function, unkeyed if it is only ever a literal or new(),
// unknown if it comes from elsewhere or escapes into another call.
func (c *checker) localOrigin(v *types.Var) (originKind, int) {
	if c.keySetOn(v) {
		return keyed, 0
	}
	info := c.pass.TypesInfo
	result := unkeyed
	sawDef := false
	ast.Inspect(c.decl.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range x.Lhs {
				id, ok := ast.Unparen(lhs).(*ast.Ident)
				if !ok || info.ObjectOf(id) != v {
					continue
				}
				sawDef = true
				if len(x.Lhs) != len(x.Rhs) || !c.builtHere(x.Rhs[i]) {
					result = unknown
				}
			}
		case *ast.ValueSpec:
			for i, id := range x.Names {
				if info.ObjectOf(id) != v {
					continue
				}
				sawDef = true
				if len(x.Values) == 0 && i < len(x.Names) {
					continue // var p stripe.XParams: zero value
				}
				if len(x.Names) != len(x.Values) || !c.builtHere(x.Values[i]) {
					result = unknown
				}
			}
		case *ast.CallExpr:
			// Escaping into a helper (not the stripe call, not a method
			// on the params) may set the key there.
			if fn := keyflow.Callee(info, x); fn != nil {
				if idx, _, _ := c.writeParams(fn, x); len(idx) > 0 {
					return true
				}
			}
			for _, a := range x.Args {
				if refersTo(info, a, v) {
					result = unknown
				}
			}
		}
		return true
	})
	if !sawDef {
		return unknown, 0
	}
	return result, 0
}

// refersTo reports an argument through which a callee can reach v's key:
// v itself, &v, or a pointer into v such as &params.Params.
// maxConstructorDepth bounds constructors calling constructors.
const maxConstructorDepth = 3

// unkeyedConstructor reports a call to a function of the package whose
// every result is stripe params built there without a key
// (params := newIntentParams(order)).
func (c *checker) unkeyedConstructor(call *ast.CallExpr) bool {
	fn := keyflow.Callee(c.pass.TypesInfo, call)
	decl := c.decls[fn]
	if decl == nil || c.depth >= maxConstructorDepth {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 || !isParams(sig.Results().At(0).Type()) {
		return false
	}
	inner := &checker{pass: c.pass, model: c.model, decl: decl, local: c.local, decls: c.decls, depth: c.depth + 1}
	returns := 0
	unkeyedAll := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) == 0 {
				unkeyedAll = false
				return false
			}
			returns++
			if kind, _ := inner.origin(ast.Unparen(x.Results[0])); kind != unkeyed {
				unkeyedAll = false
			}
		}
		return true
	})
	return returns > 0 && unkeyedAll
}

func refersTo(info *types.Info, e ast.Expr, v *types.Var) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return rootIs(info, u.X, v)
	}
	if id, ok := e.(*ast.Ident); ok {
		return info.ObjectOf(id) == v
	}
	if _, ok := info.TypeOf(e).(*types.Pointer); ok {
		return rootIs(info, e, v)
	}
	return false
}

// builtHere reports params built without a key: a literal, new(), or a
// call to a constructor of the package that returns only such params.
func (c *checker) builtHere(e ast.Expr) bool {
	info := c.pass.TypesInfo
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch x := e.(type) {
	case *ast.CompositeLit:
		return !literalKeyed(x)
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "new" {
			_, builtin := info.Uses[id].(*types.Builtin)
			return builtin
		}
		return c.unkeyedConstructor(x)
	}
	return false
}

// keySetOn reports v.IdempotencyKey = ..., v.Params.IdempotencyKey = ...,
// v.SetIdempotencyKey(...) or a literal assigned to v that sets the key.
func (c *checker) keySetOn(v *types.Var) bool {
	return c.writesTo(v, func(w write) bool {
		switch {
		case w.method != "":
			return w.method == "SetIdempotencyKey"
		case w.field != "":
			return w.field == "IdempotencyKey"
		}
		lit, ok := unaddr(w.value).(*ast.CompositeLit)
		return ok && literalKeyed(lit)
	})
}

// write is one write to a params variable: a field assigned
// (v.F = value, also through v.Params), v itself assigned (field ""), or a
// method called on it.
type write struct {
	field, method string
	value         ast.Expr
}

// writesTo reports whether matches holds for one of the function's writes
// to v, stopping at the first.
func (c *checker) writesTo(v *types.Var, matches func(write) bool) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(c.decl.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range x.Lhs {
				var rhs ast.Expr
				if len(x.Lhs) == len(x.Rhs) {
					rhs = x.Rhs[i]
				}
				if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && rootIs(info, sel.X, v) {
					found = found || matches(write{field: sel.Sel.Name, value: rhs})
				}
				if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && info.ObjectOf(id) == v && rhs != nil {
					found = found || matches(write{value: rhs})
				}
			}
		case *ast.ValueSpec:
			for i, id := range x.Names {
				if info.ObjectOf(id) == v && i < len(x.Values) {
					found = found || matches(write{value: x.Values[i]})
				}
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && rootIs(info, sel.X, v) {
				found = found || matches(write{method: sel.Sel.Name})
			}
		}
		return !found
	})
	return found
}

func unaddr(e ast.Expr) ast.Expr {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return ast.Unparen(u.X)
	}
	return e
}

func rootIs(info *types.Info, e ast.Expr, v *types.Var) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.ObjectOf(x) == v
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return false
		}
	}
}

// unconfirmed reports params, built here, that leave off the field an
// operation needs to act (a PaymentIntent created without Confirm moves no
// money): then a repeat leaves a spare object and charges nothing.
func (c *checker) unconfirmed(fn *types.Func, arg ast.Expr) bool {
	if fn.Pkg() == nil || !stripePath.MatchString(fn.Pkg().Path()) {
		return false
	}
	field, ok := c.model.UnconfirmedField(fn.Pkg().Path(), keymodel.RecvName(fn), fn.Name())
	if !ok {
		return false
	}
	info := c.pass.TypesInfo
	switch x := unaddr(arg).(type) {
	case *ast.CompositeLit:
		return !literalSets(x, field)
	case *ast.Ident:
		v, ok := info.ObjectOf(x).(*types.Var)
		return ok && !c.fieldSetOn(v, field)
	}
	return info.Types[arg].IsNil()
}

// fieldSetOn reports v.F = … or a value assigned to v that may set F:
// built elsewhere, or a literal that sets it.
func (c *checker) fieldSetOn(v *types.Var, field string) bool {
	return c.writesTo(v, func(w write) bool {
		switch {
		case w.method != "":
			return false
		case w.field != "":
			return w.field == field
		}
		lit, ok := unaddr(w.value).(*ast.CompositeLit)
		return !ok || literalSets(lit, field)
	})
}

// literalSets reports a literal that sets field to anything but false
// (Confirm: stripe.Bool(false) confirms nothing).
func literalSets(lit *ast.CompositeLit, field string) bool {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
			return !falseValue(kv.Value)
		}
	}
	return false
}

// falseValue reports false or a pointer helper's false (stripe.Bool(false)).
func falseValue(e ast.Expr) bool {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		e = ast.Unparen(call.Args[0])
	}
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "false"
}

// literalKeyed reports a params literal that sets IdempotencyKey, directly
// or in its embedded Params.
func literalKeyed(lit *ast.CompositeLit) bool {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		if id.Name == "IdempotencyKey" {
			return true
		}
		if id.Name == "Params" {
			if inner, ok := unaddr(kv.Value).(*ast.CompositeLit); ok && literalKeyed(inner) {
				return true
			}
		}
	}
	return false
}

// shortName renders a callee as pkg.Func or Type.Method.
func shortName(fn *types.Func) string {
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return strings.TrimPrefix(n.Obj().Name(), "v1") + "." + fn.Name()
		}
		return fn.Name()
	}
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}
