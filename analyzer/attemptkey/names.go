package attemptkey

// Names by value. A header or key name is often not written at the call:
// it sits in a constant, in a package variable, or in the result of
// http.CanonicalHeaderKey. Names are compared normalized (case and
// punctuation dropped), so a canonicalization changes nothing that
// matters and resolves to its argument.

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// stringValue returns the value of a string operand that names something:
// a constant, a package-level variable of this package assigned once (its
// initializer), a concatenation or a case fold of such values.
func (e *engine) stringValue(v ssa.Value) (string, bool) {
	return e.resolveString(v, 0)
}

func (e *engine) resolveString(v ssa.Value, depth int) (string, bool) {
	if depth > 6 {
		return "", false
	}
	if s, ok := constString(v); ok {
		return s, true
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		g, ok := v.X.(*ssa.Global)
		if v.Op != token.MUL || !ok {
			return "", false
		}
		if vals := e.globalStores()[g]; len(vals) == 1 {
			return e.resolveString(vals[0], depth+1)
		}
	case *ssa.BinOp:
		if v.Op == token.ADD {
			a, ok1 := e.resolveString(v.X, depth+1)
			b, ok2 := e.resolveString(v.Y, depth+1)
			if ok1 && ok2 {
				return a + b, true
			}
		}
	case *ssa.Call:
		if fn, ok := v.Call.Value.(*ssa.Function); ok && fn.Pkg != nil && len(v.Call.Args) == 1 &&
			keymodel.FoldsCase(fn.Pkg.Pkg.Path(), fn.Name()) {
			return e.resolveString(v.Call.Args[0], depth+1)
		}
	}
	return "", false
}

// globalStores maps each package-level variable of this package to the
// values stored into it anywhere in the package.
func (e *engine) globalStores() map[*ssa.Global][]ssa.Value {
	if e.stores != nil {
		return e.stores
	}
	e.stores = map[*ssa.Global][]ssa.Value{}
	for _, f := range e.funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if g, ok := st.Addr.(*ssa.Global); ok {
						e.stores[g] = append(e.stores[g], st.Val)
					}
				}
			}
		}
	}
	return e.stores
}

// counters returns the package-level variables of this package that are
// counters: a store puts back a value computed from a load of the same
// variable (seq++, n = n + 1). Each read of one is a fresh value per call,
// keyed by the position of the increment.
func (e *engine) counters() map[*ssa.Global]token.Pos {
	if e.counterVars != nil {
		return e.counterVars
	}
	e.counterVars = map[*ssa.Global]token.Pos{}
	for g, vals := range e.globalStores() {
		for _, v := range vals {
			if b, ok := v.(*ssa.BinOp); ok && (b.Op == token.ADD || b.Op == token.SUB) && (loads(b.X, g) || loads(b.Y, g)) {
				e.counterVars[g] = b.Pos()
				break
			}
		}
	}
	return e.counterVars
}

func loads(v ssa.Value, g *ssa.Global) bool {
	u, ok := v.(*ssa.UnOp)
	return ok && u.Op == token.MUL && u.X == g
}

// localCounter reports the counter of a retry loop this process
// increments (for n := 0; n < max; n++ around a call that leaves the loop
// on success): each try draws a new value, whatever its name. The index of a loop over data (for i := range items,
// i < len(items), items[i]) is part of the data's structure and stable
// across redeliveries, so it is not one.
func (e *engine) localCounter(phi *ssa.Phi) (token.Pos, bool) {
	if e.loopCounters == nil {
		e.loopCounters = map[*ssa.Phi]token.Pos{}
	}
	if pos, ok := e.loopCounters[phi]; ok {
		return pos, pos.IsValid()
	}
	pos := e.computeLocalCounter(phi)
	e.loopCounters[phi] = pos
	return pos, pos.IsValid()
}

func (e *engine) computeLocalCounter(phi *ssa.Phi) token.Pos {
	if phi.Comment == "" || strings.HasPrefix(phi.Block().Comment, "rangeindex") {
		return token.NoPos
	}
	if b, ok := phi.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return token.NoPos
	}
	var inc token.Pos
	for _, ed := range phi.Edges {
		if b, ok := ed.(*ssa.BinOp); ok && (b.Op == token.ADD || b.Op == token.SUB) && (b.X == phi || b.Y == phi) {
			if _, isConst := b.Y.(*ssa.Const); isConst || b.X != phi {
				inc = firstValid(b.Pos(), phi.Pos())
			}
		}
	}
	if !inc.IsValid() {
		return token.NoPos
	}
	if _, retried := e.reach.RetryLoop(inc); !retried {
		// A loop that does not try again on failure (a scan over text, a
		// fan-out, a page loop) counts the same way on every attempt: its
		// counter is a function of the input, not a new draw per attempt.
		return token.NoPos
	}
	for _, r := range *phi.Referrers() {
		switch r := r.(type) {
		case *ssa.IndexAddr:
			if r.Index == phi {
				return token.NoPos
			}
		case *ssa.Index:
			if r.Index == phi {
				return token.NoPos
			}
		case *ssa.BinOp:
			other := r.X
			if other == phi {
				other = r.Y
			}
			if isLenOf(other) {
				return token.NoPos
			}
		}
	}
	return inc
}

// isLenOf reports a len(x) call (of data, not a constant bound).
func isLenOf(v ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := c.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "len"
}
