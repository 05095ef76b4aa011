package flow

// Arms a constant argument selects. generateKey(jobType, data) returns
// `email-${to}-${new Date()}` under `case 'send-email':` and
// `refund-${data.transactionId}` under `case 'refund-process':`; a
// caller that passes 'refund-process' gets only the second. Each value a
// function draws remembers the tests of its parameters against string
// literals on the path that drew it (a switch's case, an if's ==), and a
// call whose argument is a constant that fails one of them drops it.

import (
	"slices"

	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

// paramCase is a path's test of a parameter against string literals:
// the parameter is one of strs (in), or none of them (!in).
type paramCase struct {
	i    int
	strs []string
	in   bool
}

// admits reports whether a constant argument s can take the path.
func (p paramCase) admits(s string) bool {
	return slices.Contains(p.strs, s) == p.in
}

// caseTest reads a condition as a test of one of this function's own
// parameters (not a field of one) against string literals: p == 'a',
// p === 'a' || p === 'b', p != 'a'. ok is false for any other condition.
func (c *ctx) caseTest(cond ir.Expr) (paramCase, bool) {
	x, isBin := cond.(*ir.Binary)
	if !isBin {
		return paramCase{}, false
	}
	switch x.Op {
	case "||", "or":
		l, okL := c.caseTest(x.L)
		r, okR := c.caseTest(x.R)
		if !okL || !okR || l.i != r.i || !l.in || !r.in {
			return paramCase{}, false
		}
		return paramCase{i: l.i, strs: append(slices.Clip(l.strs), r.strs...), in: true}, true
	case "in", "not in":
		// job_type in ("email", "sms")
		i, ok := c.ownParam(x.L)
		strs, lits := strLits(x.R)
		if !ok || !lits {
			return paramCase{}, false
		}
		return paramCase{i: i, strs: strs, in: x.Op == "in"}, true
	case "==", "===", "is", "!=", "!==", "is not":
	default:
		return paramCase{}, false
	}
	subj, lit := x.L, x.R
	if _, isLit := subj.(*ir.Lit); isLit {
		subj, lit = lit, subj
	}
	l, isLit := lit.(*ir.Lit)
	if !isLit || l.Kind != "str" {
		return paramCase{}, false
	}
	i, ok := c.ownParam(subj)
	if !ok {
		return paramCase{}, false
	}
	in := x.Op == "==" || x.Op == "===" || x.Op == "is"
	return paramCase{i: i, strs: []string{l.Value}, in: in}, true
}

// ownParam is the index of the parameter a name holds unchanged.
func (c *ctx) ownParam(x ir.Expr) (int, bool) {
	n, ok := x.(*ir.Name)
	if !ok {
		return 0, false
	}
	v := c.env[n.ID]
	if v == nil || len(v.params) != 1 || v.params[0].path != "" || len(v.origins) > 0 || v.computed {
		return 0, false
	}
	return v.params[0].i, true
}

// negate is the path where the test failed.
func (p paramCase) negate() paramCase {
	p.in = !p.in
	return p
}

// withCase runs body with p added to the path's tests.
func (c *ctx) withCase(p paramCase, ok bool, body func()) {
	if !ok {
		body()
		return
	}
	saved := c.cases
	c.cases = append(slices.Clip(c.cases), p)
	body()
	c.cases = saved
}

// settleCases drops the values fn drew on a path that the call's
// constant arguments rule out.
func settleCases(origins []*origin, fn *ir.Func, args []*value) []*origin {
	var out []*origin
	for _, o := range origins {
		if o.fn != fn || !ruledOut(o.when, args) {
			out = append(out, o)
		}
	}
	return out
}

func ruledOut(when []paramCase, args []*value) bool {
	for _, p := range when {
		if p.i < len(args) && args[p.i] != nil && args[p.i].hasStr && !p.admits(args[p.i].str) {
			return true
		}
	}
	return false
}

// strLits reads a list or tuple of string literals.
func strLits(x ir.Expr) ([]string, bool) {
	l, ok := x.(*ir.List)
	if !ok || len(l.Elems) == 0 {
		return nil, false
	}
	var out []string
	for _, e := range l.Elems {
		lit, isLit := e.(*ir.Lit)
		if !isLit || lit.Kind != "str" {
			return nil, false
		}
		out = append(out, lit.Value)
	}
	return out, true
}

// afterReturningIf: the statements after `if (kind === "payout") { …;
// return … }` run only where the test failed.
func (c *ctx) afterReturningIf(s ir.Stmt) {
	x, ok := s.(*ir.If)
	if !ok || !endsInReturn(x.Then) {
		return
	}
	if t, ok := c.caseTest(x.Cond); ok {
		c.cases = append(slices.Clip(c.cases), t.negate())
	}
}

func endsInReturn(ss []ir.Stmt) bool {
	if len(ss) == 0 {
		return false
	}
	_, ok := ss[len(ss)-1].(*ir.Return)
	return ok
}
