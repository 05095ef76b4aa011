package attemptkey

// A key drawn only when the request being served brought none:
//
//	key := r.Header.Get("Idempotency-Key")
//	if key == "" {
//		key = uuid.NewString()
//	}
//
// In code only requests reach (an HTTP route, a command), a client that
// sends its own key gets it used, and one that sends none asked for none:
// the draw is no per-attempt key. In a consumer, a job or code whose
// callers are out of view, the same fallback is drawn again on each
// redelivery, and stays a source.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/reach"
)

// requestFallback reports a draw made only where a value the incoming
// request carries is empty, in code only requests reach.
func (e *engine) requestFallback(call *ssa.Call) bool {
	if r, ok := e.fallbacks[call]; ok {
		return r
	}
	r := e.computeRequestFallback(call)
	e.fallbacks[call] = r
	return r
}

func (e *engine) computeRequestFallback(call *ssa.Call) bool {
	b := call.Block()
	if b == nil || e.reach == nil || e.reach.At(call.Pos()) != reach.Request {
		return false
	}
	for x := range emptinessGuards(b) {
		if fromRequest(x, 0, map[ssa.Value]visit{}) {
			return true
		}
	}
	return false
}

// emptinessGuards yields the x of each `x == ""` or `len(x) == 0` test
// whose true branch alone leads to b: b runs only when x is empty.
func emptinessGuards(b *ssa.BasicBlock) iter.Seq[ssa.Value] {
	return func(yield func(ssa.Value) bool) {
		for d := b; d.Idom() != nil; d = d.Idom() {
			parent := d.Idom()
			ifi, ok := parent.Instrs[len(parent.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			then := parent.Succs[0]
			if len(then.Preds) != 1 || !then.Dominates(b) {
				continue
			}
			if x, ok := emptinessTest(ifi.Cond); ok && !yield(x) {
				return
			}
		}
	}
}

// emptinessTest reads `x == ""` and `len(x) == 0`, giving x.
func emptinessTest(cond ssa.Value) (ssa.Value, bool) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL {
		return nil, false
	}
	x, y := bin.X, bin.Y
	if _, isConst := x.(*ssa.Const); isConst {
		x, y = y, x
	}
	c, ok := y.(*ssa.Const)
	if !ok || c.Value == nil {
		return nil, false
	}
	switch c.Value.Kind() {
	case constant.String:
		if constant.StringVal(c.Value) == "" {
			return x, true
		}
	case constant.Int:
		if n, exact := constant.Int64Val(c.Value); exact && n == 0 {
			if call, isCall := x.(*ssa.Call); isCall {
				if b, isBuiltin := call.Call.Value.(*ssa.Builtin); isBuiltin && b.Name() == "len" && len(call.Call.Args) == 1 {
					return call.Call.Args[0], true
				}
			}
		}
	}
	return nil, false
}

// maxRequestDepth bounds the operands followed back to the request.
const maxRequestDepth = 10

// fromRequest reports a value the incoming request carries: read from
// the *http.Request or the request context a handler is handed (a
// header, a form value, the body decoded into a local struct), through
// loads, fields, conversions and calls whose operands are all such.
func fromRequest(v ssa.Value, depth int, seen map[ssa.Value]visit) bool {
	switch seen[v] {
	case visiting, visitedNo:
		return false
	case visitedYes:
		return true
	}
	if depth > maxRequestDepth {
		return false
	}
	seen[v] = visiting
	r := requestOperand(v, depth, seen)
	seen[v] = visitedNo
	if r {
		seen[v] = visitedYes
	}
	return r
}

// visit is fromRequest's memo of a value: being followed (a cycle ends
// there), or its answer.
type visit uint8

const (
	unvisited visit = iota
	visiting
	visitedNo
	visitedYes
)

func requestOperand(v ssa.Value, depth int, seen map[ssa.Value]visit) bool {
	if x := passThrough(v); x != nil {
		return fromRequest(x, depth+1, seen)
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		return isIncoming(x.Type())
	case *ssa.Phi:
		for _, edge := range x.Edges {
			if !fromRequest(edge, depth+1, seen) && !isEmptyConst(edge) {
				return false
			}
		}
		return len(x.Edges) > 0
	case *ssa.Call:
		// r.Header.Get(…), c.GetHeader(…), strings.TrimSpace(…): the
		// request is the receiver or an argument.
		for _, a := range callArgs(&x.Call) {
			if _, isConst := a.(*ssa.Const); !isConst && fromRequest(a, depth+1, seen) {
				return true
			}
		}
	case *ssa.Alloc:
		// var body req; json.NewDecoder(r.Body).Decode(&body)
		if decodedFromRequest(x, depth, seen) {
			return true
		}
		for _, r := range *x.Referrers() {
			if mi, ok := r.(*ssa.MakeInterface); ok && decodedFromRequest(mi, depth, seen) {
				return true
			}
		}
	}
	return false
}

// decodedFromRequest reports a destination (&body, or it as an any)
// handed to a call whose other operands carry the request.
func decodedFromRequest(dst ssa.Value, depth int, seen map[ssa.Value]visit) bool {
	for _, r := range *dst.Referrers() {
		call, ok := r.(ssa.CallInstruction)
		if !ok {
			continue
		}
		for _, a := range callArgs(call.Common()) {
			if a != dst && fromRequest(a, depth+1, seen) {
				return true
			}
		}
	}
	return false
}

// passThrough is the one operand a value is read, selected or converted
// from (a load, a field, a tuple's element, a conversion), or nil.
func passThrough(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.UnOp:
		return x.X
	case *ssa.FieldAddr:
		return x.X
	case *ssa.Field:
		return x.X
	case *ssa.Extract:
		return x.Tuple
	case *ssa.TypeAssert:
		return x.X
	}
	return converted(v)
}

// converted is the value a conversion converts (to an interface, another
// interface, or a type of the same underlying type), or nil.
func converted(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.ChangeType:
		return x.X
	case *ssa.Convert:
		return x.X
	case *ssa.MakeInterface:
		return x.X
	case *ssa.ChangeInterface:
		return x.X
	}
	return nil
}

func isEmptyConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.String && constant.StringVal(c.Value) == ""
}

// isIncoming: the request being served (*http.Request) or a request
// context that holds it or the response writer (gin's, echo's).
func isIncoming(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Request" {
			return true
		}
	}
	return holdsResponseWriter(t)
}

// A key drawn only when the caller handed in none:
//
//	func (s *Service) Initiate(ctx context.Context, in Input) error {
//		if in.IdempotencyKey == "" {
//			in.IdempotencyKey = uuid.NewString()
//		}
//
// is judged where the key comes from, at each call: a caller that passes
// a key is silent, one that leaves it out is reported at its call. When
// such a function is exported and only callers in other packages reach
// it, its fact holds the finding, and the packages that call it decide.

// handedIn is the parameter (by position in the signature, without the
// receiver) and field path a fallback draw tests for emptiness.
type handedIn struct {
	fn    *types.Func
	param int
	path  string
}

// paramFallback reports the parameter a draw falls back for, when the
// draw is made only where that parameter (or a field of it) is empty, in
// an exported function nothing in its package reaches.
func (e *engine) paramFallback(call *ssa.Call) (handedIn, bool) {
	b := call.Block()
	fn := call.Parent()
	if b == nil || e.reach == nil || e.reach.At(call.Pos()) != reach.OutOfView || fn == nil {
		return handedIn{}, false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() || fn.Parent() != nil {
		return handedIn{}, false
	}
	for x := range emptinessGuards(b) {
		if p, path, ok := paramOf(x); ok {
			i := paramIndex(fn, p)
			if i >= 0 {
				return handedIn{fn: obj, param: i, path: path}, true
			}
		}
	}
	return handedIn{}, false
}

// noteParamFallback records the origins a call draws when it draws them
// only for a caller that handed in no key.
func (e *engine) noteParamFallback(call *ssa.Call) {
	h, ok := e.paramFallbackCached(call)
	if !ok {
		return
	}
	for _, l := range e.labels(key{call, ""}) {
		if o := l.origin; o != nil && o.root == o && o.pos == call.Pos() {
			e.fallbackDraws[o] = h
		}
	}
}

func (e *engine) paramFallbackCached(call *ssa.Call) (handedIn, bool) {
	if h, ok := e.paramFallbacks[call]; ok {
		return h, h.fn != nil
	}
	h, _ := e.paramFallback(call)
	e.paramFallbacks[call] = h
	return h, h.fn != nil
}

// paramOf reads a parameter or one field of it: p, *p.F, p.F of a
// struct passed by value (copied to a local first), also trimmed or
// case-folded (strings.TrimSpace(p) is empty when p is, but for spaces).
func paramOf(x ssa.Value) (*ssa.Parameter, string, bool) {
	switch v := x.(type) {
	case *ssa.Call:
		if fn := v.Call.StaticCallee(); fn != nil && fn.Pkg != nil && len(v.Call.Args) == 1 && keymodel.FoldsCase(fn.Pkg.Pkg.Path(), fn.Name()) {
			return paramOf(v.Call.Args[0])
		}
	case *ssa.Parameter:
		return v, "", true
	case *ssa.Field:
		if p, ok := v.X.(*ssa.Parameter); ok {
			name, _ := fieldOf(p.Type(), v.Field)
			return p, name, true
		}
	case *ssa.UnOp:
		fa, ok := v.X.(*ssa.FieldAddr)
		if !ok {
			return nil, "", false
		}
		name, _ := fieldOf(fa.X.Type(), fa.Field)
		switch base := fa.X.(type) {
		case *ssa.Parameter:
			return base, name, true
		case *ssa.Alloc:
			if p := copiedParam(base); p != nil {
				return p, name, true
			}
		}
	}
	return nil, "", false
}

// copiedParam is the parameter a local holds a copy of (SSA copies a
// struct parameter whose fields the function assigns).
func copiedParam(a *ssa.Alloc) *ssa.Parameter {
	for _, r := range *a.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == a {
			if p, ok := st.Val.(*ssa.Parameter); ok {
				return p
			}
		}
	}
	return nil
}

// paramIndex is p's position among fn's signature parameters (the
// receiver left out), or -1.
func paramIndex(fn *ssa.Function, p *ssa.Parameter) int {
	off := 0
	if fn.Signature.Recv() != nil {
		off = 1
	}
	for i, q := range fn.Params {
		if q == p {
			return i - off
		}
	}
	return -1
}

// fallbackKeys is the fact of an exported function that draws a key when
// its caller hands in none: its callers decide.
type fallbackKeys struct {
	Keys []FallbackKey
}

// FallbackKey is one such draw and the finding it makes where a caller
// leaves the key out.
type FallbackKey struct {
	Message string // the finding, as it would be reported
	Posn    string // "file:line:col" where the key is sent
	Drawn   string // "file:line:col" of the draw
	Param   int    // the parameter, by position in the signature
	Path    string // its field holding the key, or ""
}

// AFact implements analysis.Fact.
func (*fallbackKeys) AFact() {}

func (f *fallbackKeys) String() string { return fmt.Sprintf("fallback keys %d", len(f.Keys)) }

// holdFallback keeps a finding whose key is a fallback for a caller's in
// the fact of the function its callers call; true when it is held (and
// not reported here).
func (e *engine) holdFallback(f *finding, d analysis.Diagnostic) bool {
	h, ok := e.fallbackDraws[f.o.root]
	if !ok {
		return false
	}
	var facts fallbackKeys
	e.pass.ImportObjectFact(h.fn, &facts)
	k := FallbackKey{Message: d.Message, Posn: e.fullPosn(d.Pos), Drawn: e.fullPosn(f.o.root.pos), Param: h.param, Path: h.path}
	for _, old := range facts.Keys {
		if old.Posn == k.Posn && old.Drawn == k.Drawn {
			return true
		}
	}
	facts.Keys = append(facts.Keys, k)
	e.pass.ExportObjectFact(h.fn, &facts)
	return true
}

// relayFallbacks reports, at each call of an imported function that
// draws a key when it is handed none, the calls that hand in none, unless
// a finding is already reported on that line (the callee wrote the drawn
// key into the caller's struct, and the flow reached a sink here).
func (e *engine) relayFallbacks(reportedAt map[string]bool) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	e.importedCalls(func(call *ast.CallExpr, fn *types.Func) {
		var facts fallbackKeys
		if !e.pass.ImportObjectFact(fn, &facts) {
			return
		}
		for _, k := range facts.Keys {
			if k.Param >= len(call.Args) || handsInKey(call.Args[k.Param], k.Path) || reportedAt[e.lineOf(call.Pos())] {
				continue
			}
			what := "the key"
			if k.Path != "" {
				what = k.Path
			}
			out = append(out, analysis.Diagnostic{Pos: call.Pos(), Category: Rule.ID, Message: k.Message, Related: []analysis.RelatedInformation{
				{Pos: e.posOf(k.Drawn), Message: "drawn by " + fn.Name() + " because this call leaves " + what + " empty"},
				{Pos: e.posOf(k.Posn), Message: "used as idempotency key"},
			}})
		}
	})
	return out
}

// handsInKey reports whether an argument hands in a key at path: a
// composite literal that sets the field to anything but "", or any other
// expression (a variable the caller filled, its own parameter), which is
// the caller's to answer for. Only a literal that leaves the field out
// or sets it to "" hands in none.
func handsInKey(arg ast.Expr, path string) bool {
	arg = ast.Unparen(arg)
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		arg = ast.Unparen(u.X)
	}
	if path == "" {
		return !isEmptyStringLit(arg)
	}
	lit, ok := arg.(*ast.CompositeLit)
	if !ok {
		return true
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return true // positional fields: all set
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == path {
			return !isEmptyStringLit(kv.Value)
		}
	}
	return false
}

func isEmptyStringLit(x ast.Expr) bool {
	lit, ok := ast.Unparen(x).(*ast.BasicLit)
	return ok && lit.Kind == token.STRING && (lit.Value == `""` || lit.Value == "``")
}

// lineOf is "file:line" of pos.
func (e *engine) lineOf(pos token.Pos) string {
	p := e.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", p.Filename, p.Line)
}
