package flow

import (
	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
	"github.com/idemcheck/idemcheck/analyzer/report"
)

// A fallback is a per-attempt value drawn only when a key handed in is
// missing: `key or uuid4()`, `req.headers["idempotency-key"] ?? randomUUID()`,
// `if not key: key = str(uuid4())`. Whether it reaches the sink depends on
// what the caller hands in, so it is judged there:
//   - a caller in view that passes nothing takes the fallback: a finding
//     at that call;
//   - a caller that passes a value decides by that value (its own origins);
//   - a caller that passes its own parameter moves the question one
//     caller up;
//   - an HTTP route's request is the client's: a client that sends no key
//     asked for no idempotency, as with a keyless call in a route, so the
//     fallback is silent there;
//   - a consumer's message is redelivered as it is: a message without the
//     key draws a new one per delivery, a finding;
//   - a function no caller in view reaches keeps the finding (its callers
//     are out of view).

// guard is the condition a fallback is drawn under: the parameters of fn
// (or the client's idempotency header) it stands in for are missing.
type guard struct {
	fn     *ir.Func
	params []paramRef
	header bool
	// enclosing: a parameter of fn not referenced as one (fn's closures
	// read it): no call binds it, so fn's callers decide as a whole.
	enclosing bool
	// outer: which of fn's parameters an enclosing guard tests, when
	// known.
	outer []paramRef
}

// guardOf is the guard that `v or …` puts on the right side: v must be a
// key handed in (a parameter's value, or the request's idempotency
// header), with nothing drawn here; nil otherwise.
func (c *ctx) guardOf(v *value) *guard {
	if v == nil || len(v.origins) > 0 {
		return nil
	}
	if v.header {
		return &guard{fn: c.fn, header: true, params: v.params}
	}
	if len(v.params) == 0 && !v.handedIn || v.stable || v.computed {
		return nil // built here from what was handed in: a key that is there
	}
	// Without parameter references (the parent's parameter, read in the
	// parent's evaluation for its closures) the callers decide as a whole.
	g := &guard{fn: c.fn, params: v.params, enclosing: len(v.params) == 0}
	if g.enclosing && v.outerParam > 0 {
		g.outer = []paramRef{{i: v.outerParam - 1}}
	}
	return g
}

// passedOn is the guard for an argument that hands on one of this
// function's own parameters whole (key=key), which its callers may leave
// out in turn; nil for anything else, a field read from a parameter
// included (sub.renewal_key is the caller's data, there).
func (c *ctx) passedOn(v *value) *guard {
	g := c.guardOf(v)
	if g == nil || g.header || len(g.params) != 1 || g.params[0].path != "" {
		return nil
	}
	return g
}

// orElse is `l or r` (`l || r`, `l ?? r`): l when it is there, else r.
func (c *ctx) orElse(l, r *value) *value {
	if g := c.guardOf(l); g != nil && r != nil && len(r.origins) > 0 {
		r = drawnUnder(r, g)
	}
	return merge(l, r)
}

// drawnUnder is v with its per-attempt origins drawn only under g.
func drawnUnder(v *value, g *guard) *value {
	out := *v
	out.origins = make([]*origin, len(v.origins))
	for i, o := range v.origins {
		cp := *o
		if cp.unless == nil {
			cp.unless = g
		}
		out.origins[i] = &cp
	}
	return &out
}

// absenceTest names the variable a condition tests for being missing:
// `not key`, `!key`, `key is None`, `key == null`; "" for any other.
func absenceTest(cond ir.Expr) string {
	switch x := cond.(type) {
	case *ir.Other:
		if len(x.Xs) == 1 {
			if n, ok := x.Xs[0].(*ir.Name); ok {
				return n.ID
			}
		}
	case *ir.Binary:
		switch x.Op {
		case "is", "==", "===":
			if isNone(x.R) {
				if n, ok := x.L.(*ir.Name); ok {
					return n.ID
				}
			}
		}
	}
	return ""
}

// absentAttr is the attribute an absence test reads (`not row.key`,
// `row.key is None`, `!row.key`), or nil.
func absentAttr(cond ir.Expr) *ir.Attr {
	switch x := cond.(type) {
	case *ir.Other:
		if len(x.Xs) == 1 {
			at, _ := x.Xs[0].(*ir.Attr)
			return at
		}
	case *ir.Binary:
		if (x.Op == "is" || x.Op == "==" || x.Op == "===") && isNone(x.R) {
			at, _ := x.L.(*ir.Attr)
			return at
		}
	}
	return nil
}

// keepOnRow handles `if not row.key: row.key = uuid4()` where row was read
// back from the database: the value drawn is kept on the row, so once a
// write stores it (row.save()) every later attempt reads it back instead
// of drawing. The write decides, as a claim does; without one the row
// read next time has no key and the draw is made again.
func (c *ctx) keepOnRow(at *ir.Attr, was *value) {
	now := c.eval(at)
	if len(now.origins) == 0 || !was.stable || len(was.origins) > 0 {
		return
	}
	for _, o := range now.origins {
		o.keptOnRow = true
		if _, written := c.persisted[o]; written {
			c.persisted[o] = true // row.save() inside the branch
		}
	}
}

func isNone(x ir.Expr) bool {
	l, ok := x.(*ir.Lit)
	return ok && l.Kind == "none"
}

// deferFallback decides on a fallback origin that reached a sink here:
// true when it is not reported at this sink (silent, or left to the
// callers), false when it is reported like any other origin.
func (c *ctx) deferFallback(o *origin, site *sinkSite, hops []report.Related, persisted bool) bool {
	g := o.unless
	switch c.e.entryOf(g.fn) {
	case "route":
		return true // the client chose to send no key
	case "consumer":
		return false // a message without the key is redelivered without it
	}
	if len(g.params) == 0 && !g.enclosing {
		return g.header
	}
	if g.fn != c.fn || g.enclosing {
		if !encloses(g.fn, c.fn) {
			return false
		}
		// A closure of the guard's function (retry(() => stripe.…(…,
		// { idempotencyKey }))): decided as that function's, when no
		// caller in view reaches it.
		c.e.orphanFallbacks = append(c.e.orphanFallbacks, orphanFallback{o: o, site: site, hops: hops})
		return true
	}
	for _, p := range g.params {
		c.addSink(paramSink{param: p, site: site, hops: hops, persisted: persisted, fallback: o})
	}
	c.e.orphanFallbacks = append(c.e.orphanFallbacks, orphanFallback{o: o, site: site, hops: hops})
	return true
}

// encloses reports whether fn is outer or one of its nested functions.
func encloses(outer, fn *ir.Func) bool {
	for f := fn; f != nil; f = f.Parent {
		if f == outer {
			return true
		}
	}
	return false
}

// orphanFallback is a fallback left to the callers of its function.
type orphanFallback struct {
	o    *origin
	site *sinkSite
	hops []report.Related
}

// reportOrphanFallbacks reports the fallbacks of functions no caller in
// view reaches, once every function's callers are known.
func (e *engine) reportOrphanFallbacks() {
	memo := map[*ir.Func]bool{}
	for _, f := range e.orphanFallbacks {
		// Not in dead code: a method nothing calls or names repeats
		// nothing (retryTransfer(id, key?) with only tests calling it).
		fn := f.o.unless.fn
		if len(e.callers[fn]) > 0 || !e.live(fn, memo, map[*ir.Func]bool{}) {
			continue
		}
		if calls := e.instanceCalls(fn); len(calls) > 0 && allPass(calls, fn, f.o.unless) {
			// Called by name on objects of unknown type
			// (yookassa_service.create_autopayment(…, idempotence_key=k)),
			// and every such call hands the key in: the fallback never
			// runs.
			continue
		}
		e.reportDrawn(f.site, []*origin{f.o}, f.hops)
	}
}

// allPass reports whether each call hands fn the arguments the guard
// tests, by keyword or by position, as something other than None: read
// from the call's text, since a call on an object of unknown type was
// not bound to fn's parameters.
func allPass(calls []unresolvedCall, fn *ir.Func, g *guard) bool {
	params := g.params
	if g.enclosing {
		params = g.outer
	}
	if len(params) == 0 {
		return false
	}
	for _, u := range calls {
		for _, p := range params {
			if !passes(u.call, fn, p) {
				return false
			}
		}
	}
	return true
}

// passes reports whether call certainly hands in parameter p of fn (a
// field path of it: a dict literal's key).
func passes(call *ir.Call, fn *ir.Func, p paramRef) bool {
	arg := boundArg(call, fn, p.i)
	if arg == nil || isNone(arg) {
		return false
	}
	if p.path == "" {
		return true
	}
	d, ok := arg.(*ir.Dict)
	if !ok {
		return false
	}
	for _, kv := range d.Entries {
		if kv.Key == p.path && !isNone(kv.Value) {
			return true
		}
	}
	return false
}

// applyFallback judges, at a call, a fallback of the callee's that stands
// in for the argument arg of parameter ps.param.
func (c *ctx) applyFallback(x *ir.Call, fn *ir.Func, ps paramSink, arg *value) {
	hops := append([]report.Related{c.rel(x.Pos, "passed to "+shortName(fn))}, ps.hops...)
	if missing(arg, ps.param.path) {
		// Reported at the call that leaves the key out: each such
		// caller is a place to fix.
		o := *ps.fallback
		o.unless = nil
		at := &sinkSite{file: c.file(), pos: x.Pos, what: shortName(fn) + " is given no key here and draws its own", fn: c.fn}
		hops = append([]report.Related{{File: ps.site.file, Line: ps.site.pos.Line, Column: ps.site.pos.Col, Message: "used as idempotency key: " + ps.site.what}}, hops...)
		c.judge(&value{origins: []*origin{&o}}, at, hops, ps.persisted)
		return
	}
	if g := c.passedOn(selectPath(arg, ps.param.path)); g != nil {
		o := *ps.fallback
		o.unless = g
		c.judge(&value{origins: []*origin{&o}}, ps.site, hops, ps.persisted)
	}
}

// settleFallbacks rewrites the fallbacks of fn among a call's result
// origins in terms of the call's arguments: taken when the argument is
// missing, gone when it is there, and the caller's own fallback when the
// argument is the caller's parameter.
func (c *ctx) settleFallbacks(origins []*origin, fn *ir.Func, args []*value) []*origin {
	var out []*origin
	for _, o := range origins {
		g := o.unless
		if g == nil || g.fn != fn || len(g.params) == 0 {
			out = append(out, o)
			continue
		}
		var passed []*value
		absentAll := true
		for _, p := range g.params {
			var a *value
			if p.i < len(args) {
				a = args[p.i]
			}
			if !missing(a, p.path) {
				absentAll = false
				passed = append(passed, selectPath(a, p.path))
			}
		}
		cp := *o
		switch {
		case absentAll:
			cp.unless = nil
		case len(passed) == 1:
			if cp.unless = c.passedOn(passed[0]); cp.unless == nil {
				continue // the caller's key is used
			}
		default:
			continue // the caller's key is used
		}
		out = append(out, &cp)
	}
	return out
}

// missing reports an argument certainly not handed in: not passed, None,
// null or undefined, or a field an object built here lacks.
func missing(arg *value, path string) bool {
	if arg == nil {
		return true
	}
	if path == "" {
		return arg.none
	}
	if absent(arg, path) {
		return true
	}
	v := selectPath(arg, path)
	return v == nil || v.none
}
