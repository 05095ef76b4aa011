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
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

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
		if x, ok := emptinessTest(ifi.Cond); ok && fromRequest(x, 0, map[ssa.Value]visit{}) {
			return true
		}
	}
	return false
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
	switch x := v.(type) {
	case *ssa.Parameter:
		return isIncoming(x.Type())
	case *ssa.UnOp:
		return fromRequest(x.X, depth+1, seen)
	case *ssa.FieldAddr:
		return fromRequest(x.X, depth+1, seen)
	case *ssa.Field:
		return fromRequest(x.X, depth+1, seen)
	case *ssa.Extract:
		return fromRequest(x.Tuple, depth+1, seen)
	case *ssa.ChangeType:
		return fromRequest(x.X, depth+1, seen)
	case *ssa.Convert:
		return fromRequest(x.X, depth+1, seen)
	case *ssa.MakeInterface:
		return fromRequest(x.X, depth+1, seen)
	case *ssa.ChangeInterface:
		return fromRequest(x.X, depth+1, seen)
	case *ssa.TypeAssert:
		return fromRequest(x.X, depth+1, seen)
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
