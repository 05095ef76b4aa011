package flow

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/internal/sqlquery"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/keyname"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
	"github.com/idemcheck/idemcheck/analyzer/report"
)

// floatClock are clock sources whose value is a float (seconds or
// milliseconds with a fraction).
// validates are a schema library's methods that return the data they
// check (zod's parse, yup's validate, joi's attempt).
var validates = regexp.MustCompile(`(^|\.)(parse|parseAsync|safeParse|safeParseAsync|validate|validateSync|attempt|cast)$`)

var floatClock = regexp.MustCompile(`^(time|monotonic|perf_counter|performance\.now)$`)

const remedy = "derive it from the frozen intent, or persist it before acting and read it back"

// call evaluates a call: a project function through its summary, an
// external one through the language's tables.
func (c *ctx) call(x *ir.Call) *value {
	var recv, callee, table *value
	method := ""
	switch f := x.Fun.(type) {
	case *ir.Attr:
		recv = c.eval(f.X)
		method = f.Name
		callee = c.attr(recv, f.Name, f.Pos)
	case *ir.Index:
		table = c.eval(f.X) // self.commands[kind](msg)
		callee = c.index(f, table)
	default:
		callee = c.eval(x.Fun)
	}
	args := make([]*value, len(x.Args))
	for i, a := range x.Args {
		args[i] = c.eval(a)
	}
	kwargs := make([]*value, len(x.Kwargs))
	for i, kv := range x.Kwargs {
		kwargs[i] = c.eval(kv.Value)
	}
	c.inlineCallbacks(x)
	c.handOn(table, args, kwargs)
	switch {
	case callee.fn != nil:
		return c.callProject(x, callee, recv, spreadArgs(x, args, len(callee.fn.Params)), kwargs)
	case callee.isMod || callee.mod != "":
		return c.callExternal(x, callee.mod, callee.chain, recv, "", args, kwargs)
	case recv != nil:
		if recv.mod == "" {
			// name is "" for a receiver with no name (getService().pay()).
			name := lastName(x.Fun.(*ir.Attr).X)
			c.e.unresolvedCalls[method] = append(c.e.unresolvedCalls[method], unresolvedCall{c.fn, name, x})
		}
		chain := join(recv.chain, method)
		return c.callExternal(x, "", chain, recv, "value", args, kwargs)
	}
	// Calling a value (a generator returned by nanoid's customAlphabet,
	// a callback): its result is made of it and its arguments.
	c.callsParamOf(callee)
	vs := append([]*value{callee}, args...)
	return union(append(vs, kwargs...)...)
}

// handOn records the project functions a call is handed (a thread's
// target, a task submitted) and, for a call through a table of handlers
// by a key not known here (self.commands[kind](msg)), every handler in
// the table: this function may run each of them.
// table is the value indexed to find the callee, or nil.
func (c *ctx) handOn(table *value, args, kwargs []*value) {
	for _, vs := range [][]*value{args, kwargs} {
		for _, v := range vs {
			if v != nil && v.fn != nil && !v.fn.IsClass {
				c.e.handedTo[v.fn] = append(c.e.handedTo[v.fn], c.fn)
			}
		}
	}
	if handlerTable(table) {
		for _, f := range table.fields {
			c.e.handedTo[f.fn] = append(c.e.handedTo[f.fn], c.fn)
		}
	}
}

// operation is the first of the tables' operations the call matches. An
// entry with a field applies only when the call's first argument carries
// that field: a YooKassa payment that asks for the customer's confirmation
// moves no money when it is created.
func (c *ctx) operation(ops []config.Pattern, mod, recvKind, name string, args []*value) (config.Pattern, bool) {
	for _, p := range ops {
		if !p.MatchMethod(mod, recvKind, name) {
			continue
		}
		fp := p.FieldPattern()
		if p.Kind == "remainder" || p.Kind == "unconfirmed" {
			// Harmless when the parameters are known and leave the field
			// out: a refund naming no amount refunds what remains; a
			// PaymentIntent that does not turn confirm on (absent or
			// false) charges nothing. Otherwise the next pattern.
			named := hasField
			if p.Kind == "unconfirmed" {
				named = setsField
			}
			if fp == nil || len(args) == 0 || args[0] == nil || len(args[0].fields) == 0 || named(args[0], fp) {
				continue
			}
			return p, true
		}
		if fp != nil {
			if len(args) == 0 || !hasField(args[0], fp) {
				continue
			}
		}
		return p, true
	}
	return config.Pattern{}, false
}

// paramsArg is what an operation's Field entries look into: the first
// argument, or, for a call made with keyword arguments only
// (create_payment(amount=…, confirmation=…)), those arguments as one
// object, with the members of a ** spread and of StripeClient's params=
// dict among them.
func paramsArg(x *ir.Call, args, kwargs []*value) []*value {
	if len(args) > 0 || len(kwargs) == 0 {
		return args
	}
	v := &value{fields: map[string]*value{}}
	for i, kv := range x.Kwargs {
		if kwargs[i] != nil && (kv.Key == "**" || kv.Key == "params") && len(kwargs[i].fields) > 0 {
			for k, f := range kwargs[i].fields {
				v.fields[k] = f
			}
			continue
		}
		v.fields[kv.Key] = kwargs[i]
	}
	return []*value{v}
}

// setsField reports a field matching fp that is not the literal false.
func setsField(v *value, fp *regexp.Regexp) bool {
	for k, f := range v.fields {
		if fp.MatchString(k) && (f == nil || !f.falseLit) {
			return true
		}
	}
	return false
}

func hasField(v *value, fp *regexp.Regexp) bool {
	for k := range v.fields {
		if fp.MatchString(k) {
			return true
		}
	}
	return false
}

// inlineCallbacks reads the callbacks handed to a call (a circuit
// breaker's execute(() => stripe.….create(…)), retry(async () => …),
// db.transaction(async (tx) => …)) as part of this function: what they do
// with this function's parameters is what this function does, so a key a
// caller passes reaches their sinks. Only for the parameters: the callback's
// own summary reports what it draws. A registered handler is its own entry.
func (c *ctx) inlineCallbacks(x *ir.Call) {
	if c.fn == c.fi.f.Module {
		return
	}
	for _, a := range x.Args {
		lam, ok := a.(*ir.Lambda)
		if !ok || c.e.entry[lam.F] != "" {
			continue
		}
		closure := maps.Clone(c.outer)
		if closure == nil {
			closure = map[string]*value{}
		}
		maps.Copy(closure, c.env)
		cc := c.e.newCtx(c.fi, lam.F, closure)
		cc.quiet, cc.loops = true, c.loops
		for _, p := range lam.F.Params {
			cc.env[p] = &value{rooted: true}
		}
		cc.block(lam.F.Body)
		for _, ps := range cc.sinks {
			c.addSink(ps)
		}
	}
}

func (c *ctx) callProject(x *ir.Call, callee, recv *value, args, kwargs []*value) *value {
	fn := callee.fn
	c.e.callers[fn] = append(c.e.callers[fn], c.fn)
	c.e.resolvedCall(fn, c.fi.f.Path, x.Pos)
	for i, a := range x.Args {
		if lam, ok := a.(*ir.Lambda); ok {
			c.e.handedLambdas[lam.F] = append(c.e.handedLambdas[lam.F], handOff{to: fn, arg: i})
		}
	}
	fi := c.e.fileOf(callee)
	if fi == nil {
		fi = c.fi
	}
	if fn.IsClass {
		// A constructor: an object whose fields are the keyword arguments
		// (dataclasses, pydantic models) or the options object passed.
		obj := &value{class: fn.Class, classFile: fi.f, fields: map[string]*value{}}
		if sdk := c.e.sdkBase(fi, fn); sdk != nil {
			// class VendureStripeClient extends Stripe: an SDK client
			// with methods of its own.
			obj.mod, obj.chain, obj.rooted = sdk.mod, sdk.chain, true
		}
		for i, kv := range x.Kwargs {
			obj.fields[kv.Key] = kwargs[i]
		}
		if fields, ctor := c.e.constructorArgs(fi, fn.Class), c.e.constructor(fi, fn.Class, 0); len(fields) > 0 && ctor != nil {
			// DocKey("payment_intent", name): the fields the constructor
			// sets to its parameters hold the arguments.
			bound := c.bind(ctor, obj, args, x.Kwargs, kwargs)
			for field, i := range fields {
				if i < len(bound) && bound[i] != nil && bound[i] != obj {
					obj.fields[field] = bound[i]
				}
			}
		}
		if len(x.Kwargs) == 0 && len(args) == 1 && len(args[0].fields) > 0 {
			for k, f := range args[0].fields {
				obj.fields[k] = f
			}
		}
		for _, a := range args {
			if len(a.fields) == 0 {
				obj.origins = mergeOrigins(obj.origins, a.origins)
				obj.params = mergeParams(obj.params, a.params)
			}
		}
		if m, ok := fi.methods[fn.Class+".constructor"]; ok {
			_ = m
		}
		if s := c.e.summarize(fi, fn); len(fn.Params) > 0 {
			c.applySinks(x, fn, s, c.bind(fn, nil, args, x.Kwargs, kwargs))
		}
		return obj
	}
	s := c.e.summarize(fi, fn)
	bound := c.exactNumbers(fi, fn, c.bind(fn, callee.recv, args, x.Kwargs, kwargs))
	for _, i := range s.persists {
		if i < len(bound) && bound[i] != nil {
			c.persist(bound[i:i+1], false) // repo.add(order): the callee writes it
		}
	}
	c.applySinks(x, fn, s, bound)
	c.callerOmitsKey(x, fn, bound)
	c.forwardThrough(x, fn, callee.recv, s)
	if v, ok := c.wrappedSQL(x, s, bound); ok && (len(v.origins) > 0 || v.advanced) {
		return v // a fresh row's id, or counters the query advanced
	}
	r := c.instantiate(s.result, bound)
	if len(s.stored) > 0 {
		r = c.e.markStored(r, s.stored, 0)
	}
	r.origins = c.settleFallbacks(settleCases(r.origins, fn, bound), fn, bound)
	r.computed = true
	return r
}

// exactNumbers drops the float mark of arguments bound to parameters
// declared Decimal or int: the value the function works with is exact,
// whatever the caller's arithmetic looked like (Python's / on two
// Decimals gives a Decimal).
func (c *ctx) exactNumbers(fi *fileInfo, fn *ir.Func, bound []*value) []*value {
	for j, p := range fn.Params {
		if j >= len(bound) || bound[j] == nil || !bound[j].float && len(bound[j].params) == 0 {
			continue
		}
		if _, tv := c.e.declaredType(fi, fn.ParamTypes[p]); tv != nil && exactNumberType(tv) {
			// Also for this function's own parameters it passes on: a
			// float its callers hand in arrives exact.
			cp := *bound[j]
			cp.float = false
			cp.params = integralParams(cp.params)
			bound[j] = &cp
		}
	}
	return bound
}

// exactNumberType reports decimal.Decimal and int.
func exactNumberType(tv *value) bool {
	full := tv.mod + "." + tv.chain
	return full == "decimal.Decimal" || full == "builtins.int"
}

// bind matches arguments to fn's parameters. A Python method called on an
// object gets the object as its first parameter.
func (c *ctx) bind(fn *ir.Func, recv *value, args []*value, kws []ir.KV, kwargs []*value) []*value {
	out := make([]*value, len(fn.Params))
	i0 := 0
	if recv != nil && len(fn.Params) > 0 && (fn.Params[0] == "self" || fn.Params[0] == "cls") {
		out[0] = recv
		i0 = 1
	}
	for i, a := range args {
		if i0+i < len(out) {
			out[i0+i] = a
		}
	}
	var rest *value // what **params collects
	for i, kv := range kws {
		taken := false
		for j, p := range fn.Params {
			if p == kv.Key {
				out[j] = kwargs[i]
				taken = true
			}
		}
		if taken || fn.KwargsParam == "" {
			continue
		}
		if rest == nil {
			rest = &value{fields: map[string]*value{}}
		}
		if kv.Key == "**" {
			for k, f := range kwargs[i].fields {
				rest.fields[k] = f
			}
			continue
		}
		rest.fields[kv.Key] = kwargs[i]
	}
	if rest != nil {
		for j, p := range fn.Params {
			if p == fn.KwargsParam {
				out[j] = rest
			}
		}
	}
	return out
}

// select returns the part of arg a parameter reference names.
func selectPath(arg *value, path string) *value {
	if arg == nil {
		return nil
	}
	if path == "" {
		return arg
	}
	v := arg
	for _, seg := range strings.Split(path, ".") {
		v = field(v, seg)
	}
	return v
}

// instantiate rewrites a summary's value in terms of the call's
// arguments.
func (c *ctx) instantiate(v *value, args []*value) *value {
	if v == nil {
		return &value{}
	}
	return c.inst(v, args, 0)
}

func (c *ctx) inst(v *value, args []*value, depth int) *value {
	out := *v
	out.params = nil
	for _, p := range v.params {
		if p.i < len(args) {
			a := selectPath(args[p.i], p.path)
			if a != nil {
				w := whole(a)
				out.origins = mergeOrigins(out.origins, w.origins)
				wp := w.params
				if p.integral {
					wp = integralParams(wp)
				}
				if p.serialized {
					wp = serializedParams(wp)
				}
				out.params = mergeParams(out.params, wp)
				out.float = out.float || w.float && !p.integral
				if out.payload == "" {
					out.payload, out.payloadAt = w.payload, w.payloadAt
				}
				if out.digest == "" {
					out.digest, out.digestAt = w.digest, w.digestAt
				}
				if len(v.params) == 1 && len(v.fields) == 0 && len(v.origins) == 0 && v.class == "" && v.mod == "" {
					// The function returns (a field of) its argument.
					cp := *a
					cp.float = out.float || a.float && !p.integral
					if p.integral {
						cp.params = integralParams(cp.params)
					}
					if cp.digest == "" {
						cp.digest, cp.digestAt = out.digest, out.digestAt
					}
					if cp.payload == "" {
						cp.payload, cp.payloadAt = out.payload, out.payloadAt
					}
					return &cp
				}
			}
		}
	}
	if out.digest != "" && len(v.digestBeside) > 0 {
		out.digest, out.digestBeside = c.besideDigest(v, args)
	}
	if len(v.fields) > 0 && depth < 4 {
		out.fields = make(map[string]*value, len(v.fields))
		for k, f := range v.fields {
			out.fields[k] = c.inst(f, args, depth+1)
		}
	}
	return &out
}

// besideDigest settles, at a call, the parts written beside a digest that
// the callee's parameters stand for: a constant argument keeps the digest
// bare; one the caller's own parameter stands for stays open; any other
// varies, and the key is a composite.
func (c *ctx) besideDigest(v *value, args []*value) (string, []paramRef) {
	var open []paramRef
	for _, p := range v.digestBeside {
		var a *value
		if p.i < len(args) {
			a = selectPath(args[p.i], p.path)
		}
		switch {
		case constant(a):
		case len(a.origins) == 0 && len(a.params) > 0 && a.digest == "":
			open = mergeParams(open, a.params)
		default:
			return "", nil
		}
	}
	return v.digest, open
}

// applySinks reports the arguments that reach a key sink inside the
// callee, and passes on those that come from this function's parameters.
func (c *ctx) applySinks(x *ir.Call, fn *ir.Func, s *summary, args []*value) {
	for _, ps := range s.sinks {
		if ps.fallback != nil {
			var arg *value
			if ps.param.i < len(args) {
				arg = args[ps.param.i]
			}
			c.applyFallback(x, fn, ps, arg)
			continue
		}
		if ps.param.i >= len(args) || args[ps.param.i] == nil {
			continue
		}
		if base, ok := strings.CutSuffix(ps.param.path, spreadPath); ok {
			c.applySpread(x, fn, ps, selectPath(args[ps.param.i], strings.TrimSuffix(base, ".")))
			continue
		}
		a := whole(selectPath(args[ps.param.i], ps.param.path))
		if a != nil && a.float && (ps.param.integral || ps.param.serialized) {
			cp := *a
			cp.float = false // the callee made an integer of it, or serialized it whole (its IDEM004), before the key
			a = &cp
		}
		hops := append([]report.Related{c.rel(argPos(x, boundArg(x, fn, ps.param.i)), "passed to "+shortName(fn))}, ps.hops...)
		c.judge(a, c.endpointOf(ps.site, args), hops, ps.persisted)
	}
}

// endpointOf is site as this call makes it: inert when the URL argument
// of a request wrapper (paypalFetch("/v2/checkout/orders", …)) names an
// endpoint the key model calls harmless, waiting on this function's own
// caller when the URL is this function's parameter in turn (a key drawn
// here is judged here, before that caller names the endpoint).
func (c *ctx) endpointOf(site *sinkSite, args []*value) *sinkSite {
	if site.inert || site.urlParam == 0 || site.urlParam > len(args) || args[site.urlParam-1] == nil {
		return site
	}
	url := args[site.urlParam-1]
	cp := *site
	cp.urlParam = 0
	switch {
	case url.hasStr:
		cp.inert = harmlessURL(c.fi.tables, url.str, args)
	case len(url.params) == 1 && url.params[0].path == "":
		cp.urlParam = url.params[0].i + 1
	default:
		return site
	}
	return &cp
}

// urlParam is 1 + the index of the parameter an outbound call's URL
// argument is (or ends with: `${BASE}${path}`), or 0.
func urlParam(x *ir.Call, args, kwargs []*value) int {
	var u *value
	if len(args) > 0 {
		u = args[0]
	}
	for i, kv := range x.Kwargs {
		if kv.Key == "url" {
			u = kwargs[i]
		}
	}
	if i, ok := bareParam(u); ok {
		return i + 1
	}
	return 0
}

// lastName is the last name of an expression: stripe in
// ctx.services.stripe, billing in billing; "" for anything else.
func lastName(x ir.Expr) string {
	switch x := x.(type) {
	case *ir.Name:
		return x.ID
	case *ir.Attr:
		return x.Name
	}
	return ""
}

func shortName(fn *ir.Func) string {
	if fn.Name == "<lambda>" {
		return "a function value"
	}
	return fn.Name
}

// external is a call to code outside the project.
func (c *ctx) callExternal(x *ir.Call, mod, name string, recv *value, recvKind string, args, kwargs []*value) *value {
	t := c.fi.tables
	if mod == "" && recv != nil && !recv.isMod {
		if pkg, rest, ok := sdkPathOnAttr(t, name); ok {
			return c.callExternal(x, pkg, rest, &value{mod: pkg, isMod: true}, "", args, kwargs)
		}
	}
	all := append(append([]*value(nil), args...), kwargs...)
	onValue := recv != nil && !recv.isMod
	if recvKind != "" && recv != nil && recv.mod != "" {
		mod = recv.mod
	}
	if onValue {
		// A method of a value, also of an object a module made
		// (knex's db("t").insert): the value-method patterns apply.
		// An object no module made (a model instance or manager, a
		// parameter) is an "object" too, for the patterns that hold only
		// for those (a Django related manager's create is a database
		// write; an SDK client's create is an outbound call).
		recvKind = keymodel.ModuleObject
		if recv.mod == "" {
			recvKind = keymodel.NoModule
		}
	}
	if onValue && recv.mod != "" {
		if v, ok := c.builderCall(x, recv, lastSeg(name), args, kwargs); ok {
			return v
		}
	}
	match := func(ps []config.Pattern) (config.Pattern, bool) { return firstMatch(ps, mod, recvKind, name) }
	if v, ok := c.builtin(x, mod, name, recv, args, kwargs); ok {
		return v
	}
	if p, ok := match(t.Forwarders); ok && p.Key > 0 && p.Key <= len(x.Args) {
		i := p.Key - 1
		if !c.callsParamOf(args[i]) {
			return c.forwarded(x, i)
		}
	}
	if _, ok := match(t.Webhooks); ok {
		c.e.webhook[c.fn] = true
	}
	if _, ok := match(t.Retries); ok {
		c.handToRetry(x, args)
	}
	if p, ok := match(t.Sources); ok && p.Kind != "none" {
		if !(mod == "globalThis" && name == "Date" && (!x.New || len(args) > 0)) {
			src := name + "()"
			if mod != "" && mod != "globalThis" && mod != "builtins" && recvKind == "" {
				src = strings.TrimSuffix(lastSeg(mod)+"."+name, ".") + "()"
			}
			if x.New {
				src = "new " + src
			}
			o := &origin{kind: p.Kind, source: src, file: c.file(), pos: x.Pos, fn: c.fn, loops: c.loops, when: c.cases}
			v := &value{origins: []*origin{o}, rooted: true, float: floatClock.MatchString(name)}
			if i := p.Fills - 1; i >= 0 && i < len(x.Args) {
				// crypto.getRandomValues(bytes): the buffer passed holds
				// the random value from here on.
				c.store(x.Args[i], union(args[i], v), x.Pos)
			}
			return v
		}
	}
	if sqlv, ok := c.sqlCall(x, recv, args); ok {
		return sqlv
	}
	if _, ok := match(t.Inserts); ok {
		c.persist(all, false)
		o := &origin{kind: "row", source: name + "()", file: c.file(), pos: x.Pos, fn: c.fn, loops: c.loops, when: c.cases}
		v := &value{origins: []*origin{o}, fields: map[string]*value{}}
		for i, kv := range x.Kwargs {
			v.fields[kv.Key] = kwargs[i]
		}
		for _, a := range args {
			for _, k := range []string{"data", ""} {
				src := a
				if k != "" {
					src = a.fields[k]
				}
				if src != nil {
					for fk, fv := range src.fields {
						v.fields[fk] = fv
					}
				}
			}
		}
		return v
	}
	_, barrier := match(t.Barriers)
	if !barrier && recv != nil && recv.lib != "" && mod == "" {
		_, barrier = firstMatch(t.Barriers, recv.lib, recvKind, name)
	}
	if barrier {
		if recv != nil && hasKind(recv.origins, "row") {
			// Rows of an INSERT … RETURNING this attempt made.
			return &value{origins: recv.origins, rooted: true}
		}
		if recv != nil && recv.advanced {
			return copyFields(recv) // cur.fetchone() after UPDATE … RETURNING
		}
		return &value{stable: true}
	}
	if recv != nil && recv.stable && recvKind != "" {
		if p, ok := c.operation(t.Operations, mod, recvKind, name, nil); ok && p.Kind == "store" {
			c.persist(append(all, recv), false) // row.save(): the row read back, written with what was set on it
		}
		return &value{stable: true} // a query builder's chain
	}
	if cols := atomicIncrements(x, args); len(cols) > 0 {
		// prisma.job.update({ data: { attempts: { increment: 1 } } }):
		// the row written back holds the counter this attempt advanced.
		c.persist(all, false)
		return c.advancedRow(x, cols, "this update")
	}
	p, known := c.operation(t.Operations, mod, recvKind, name, paramsArg(x, args, kwargs)) // an operation the tables name
	if !known && mod == "" && recv != nil && recv.lib != "" {
		// A library's object held in a field or parameter
		// (self.session.add(order), session: AsyncSession).
		p, known = c.operation(t.Operations, recv.lib, recvKind, name, paramsArg(x, args, kwargs))
	}
	if known {
		if keymodel.Acts(p.Kind) {
			c.sdkWrite(x, p.Kind, args, kwargs) // and on: its key is a sink too
		}
		switch p.Kind {
		case "observe":
			return &value{}
		case "validate":
			if validates.MatchString(name) && len(args) > 0 {
				return args[0] // schema.parse(body): the body, checked
			}
			return &value{mod: mod} // a schema: its methods are the library's
		case "store":
			if recvKind == keymodel.NoModule && c.sendsKeyHeader(x, args, kwargs) {
				// An API client's create, not a model's: it sends an
				// idempotency header (client.payments.create(params=…,
				// headers={"Idempotency-Key": k})).
				break
			}
			c.persist(append(all, recv), false)
			return &value{stable: true}
		case "read":
			return &value{stable: true}
		case "build":
			// An object built in memory from the argument's fields
			// (TypeORM's repository.create): nothing leaves yet.
			if len(args) > 0 && args[0] != nil {
				return copyFields(args[0])
			}
			return &value{}
		case "respond":
			// The HTTP response to this process's caller: a key-named
			// field in the body is the caller's receipt, not a key sent
			// on. A method counts only on a response handed in (a
			// parameter), not on a value an outbound call returned.
			if !onValue {
				return &value{}
			}
			if fromParam(recv) {
				return copyFields(recv) // res.status(400).json(…) chains on the response
			}
		}
	}
	if !(onValue && recv.local) {
		// A method of a list or dict built here (push, append) keeps
		// its arguments in memory; nothing leaves.
		c.inert = actingSDK(t, mod) && !known || harmlessEndpoint(t, x, args, kwargs)
		if !c.inert {
			c.urlParam = urlParam(x, args, kwargs)
		}
		c.scanSinks(x, name, args, kwargs)
		if known && p.Key > 0 && p.Key <= len(x.Args) {
			// Payment.create(params, idempotency_key): the SDK's key is
			// an argument by position.
			i := p.Key - 1
			c.inert = actingSDK(t, mod) && !keymodel.Acts(p.Kind)
			c.sink(args[i], argPos(x, x.Args[i]), fmt.Sprintf("argument %d of %s", p.Key, name), nil)
			c.inert = false
		}
		c.inert, c.urlParam = false, 0
	}
	if _, ok := match(t.Records); ok && mod != "globalThis" && mod != "builtins" && hasRequest(x, all) {
		// The record the provider wrote: its id is not made of the
		// request's fields (a paidAt: new Date() in it).
		return &value{rooted: true}
	}
	var v *value
	if fields := constructedFields(x, args, kwargs); fields != nil && !onValue {
		// new Order({ total, userId }): the object holds those fields,
		// each with its own taint; a field not among them (the _id the
		// model draws) is not made of its siblings (a float total).
		v = &value{fields: fields, computed: true}
	} else {
		v = union(all...)
		// A library's result is not a float because a float went in: the
		// client made with httpx.Timeout(20.0) returns JSON, not seconds.
		// Formatting a float (str, toFixed, f-strings) is handled where
		// it happens, and a method of a float keeps it below.
		v.float = false
	}
	if onValue {
		v = union(recv, v)
	}
	v.rooted, v.path = true, ""
	if recvKind == "" {
		v.mod, v.chain = mod, ""
	}
	// The library whose object this is: a query a client's methods build
	// (db.collection("x").where(…)) is still that library's, for the
	// reads that end it (.get()).
	switch {
	case recv != nil && recv.lib != "":
		v.lib = recv.lib
	case mod != "" && mod != "globalThis" && mod != "builtins":
		v.lib = mod
		if i := strings.LastIndex(name, "."); i > 0 && recvKind == "" && c.fi.f.Lang == "python" {
			v.lib = mod + "." + name[:i] // from google.cloud import firestore; firestore.Client()
		}
	}
	return v
}

// firstMatch is the first of ps that matches the method name of module
// mod's object (recvKind as MatchMethod takes it).
func firstMatch(ps []config.Pattern, mod, recvKind, name string) (config.Pattern, bool) {
	for _, p := range ps {
		if p.MatchMethod(mod, recvKind, name) {
			return p, true
		}
	}
	return config.Pattern{}, false
}

// sendsKeyHeader reports a call whose headers (a headers= keyword
// argument, or a headers field of an argument) carry an idempotency
// header: a request that leaves the process.
func (c *ctx) sendsKeyHeader(x *ir.Call, args, kwargs []*value) bool {
	headers := []*value{}
	for i, kv := range x.Kwargs {
		if keyname.Normalize(kv.Key) == "headers" {
			headers = append(headers, kwargs[i])
		}
	}
	for _, a := range append(append([]*value(nil), args...), kwargs...) {
		for k, f := range a.fields {
			if keyname.Normalize(k) == "headers" {
				headers = append(headers, f)
			}
		}
	}
	for _, h := range headers {
		for k := range h.fields {
			if c.e.prog.Model.Headers.Match(k) {
				return true
			}
		}
	}
	return false
}

// spreadPath ends the path of a parameter spread into an outbound call
// (sdk.create(**params)): whichever of its fields is named like a key is
// the key, once a call says what the fields are.
const spreadPath = "*"

// spreadSink records a parameter spread into an outbound call's keyword
// arguments, whose fields are not known here.
func (c *ctx) spreadSink(x *ir.Call, v *value) {
	if v == nil || len(v.fields) > 0 {
		return
	}
	site := &sinkSite{file: c.file(), pos: x.Pos, what: "**", fn: c.fn, inert: c.inert}
	for _, p := range v.params {
		q := p
		q.path = join(p.path, spreadPath)
		c.addSink(paramSink{param: q, site: site, persisted: c.persistedParams[p.i]})
	}
}

// applySpread judges the key-named fields of what a call passed for a
// spread parameter.
func (c *ctx) applySpread(x *ir.Call, fn *ir.Func, ps paramSink, arg *value) {
	if arg == nil {
		return
	}
	for k, f := range arg.fields {
		if !c.e.prog.Model.IsKey(k) {
			continue
		}
		site := *ps.site
		site.what = k + "="
		hops := append([]report.Related{c.rel(fieldPos(x, f), "passed to "+shortName(fn))}, ps.hops...)
		c.judge(whole(f), &site, hops, ps.persisted)
	}
}

// fieldPos is where a key found among a call's argument fields was
// written, when it was written in a literal; else the call's position.
func fieldPos(x *ir.Call, f *value) ir.Pos {
	if f != nil && f.at.Line > 0 {
		return f.at
	}
	return x.Pos
}

// serializedParams marks parameters that reach a key serialized whole
// (JSON.stringify(payload)): the callee's IDEM004 covers a float a caller
// puts in them.
func serializedParams(ps []paramRef) []paramRef {
	out := append([]paramRef(nil), ps...)
	for i := range out {
		out[i].serialized = true
	}
	return out
}

// integralParams marks parameter references as reaching a value through
// an integer conversion.
func integralParams(ps []paramRef) []paramRef {
	out := append([]paramRef(nil), ps...) // not the arguments' own
	for i := range out {
		out[i].integral = true
	}
	return out
}

// argPos is the position of a call's argument, or of the call when the
// argument has none.
func argPos(x *ir.Call, arg ir.Expr) ir.Pos {
	if arg == nil {
		return x.Pos
	}
	if p := ir.PosOf(arg); p.Line > 0 {
		return p
	}
	return x.Pos
}

// boundArg is the expression of call x that parameter i of fn takes: a
// keyword argument of its name, or the positional one (after self);
// nil when neither is there (a default, or a spread).
func boundArg(x *ir.Call, fn *ir.Func, i int) ir.Expr {
	if i >= len(fn.Params) {
		return nil
	}
	for _, kv := range x.Kwargs {
		if kv.Key == fn.Params[i] {
			return kv.Value
		}
	}
	if len(fn.Params) > 0 && (fn.Params[0] == "self" || fn.Params[0] == "cls") {
		i--
	}
	if i >= 0 && i < len(x.Args) {
		return x.Args[i]
	}
	return nil
}

// sdkPathOnAttr finds an SDK's own path in the attribute chain of a value
// whose origin is out of view: self.gateway.stripe.PaymentIntent.create is
// stripe's PaymentIntent.create when the object holds the module (frappe's
// self.stripe = stripe). The SDK's module name followed by one of its
// operations is the evidence, not the name of the object holding it.
func sdkPathOnAttr(t keymodel.Tables, chain string) (pkg, rest string, ok bool) {
	segs := strings.Split(chain, ".")
	for i := 0; i < len(segs)-1; i++ {
		pkg, rest = segs[i], strings.Join(segs[i+1:], ".")
		for _, p := range t.Operations {
			if p.Package != pkg {
				continue
			}
			// One of its operations, or a resource's method of it
			// (stripe.Customer.create, which moves no money but still
			// sends the key).
			if p.MatchMethod(pkg, "", rest) || len(segs)-i > 2 {
				return pkg, rest, true
			}
		}
	}
	return "", "", false
}

// hasRequest reports a call given a request: keyword arguments or an
// object with fields.
func hasRequest(x *ir.Call, args []*value) bool {
	if len(x.Kwargs) > 0 {
		return true
	}
	for _, a := range args {
		if len(a.fields) > 0 {
			return true
		}
	}
	return false
}

// fromParam reports a value that is (made from) a parameter of the
// function, with no per-attempt origin or module of its own.
func fromParam(v *value) bool {
	return v != nil && len(v.params) > 0 && len(v.origins) == 0 && v.mod == ""
}

func lastSeg(mod string) string {
	if i := strings.LastIndexAny(mod, "/."); i >= 0 && !strings.HasPrefix(mod, "@") {
		return mod[i+1:]
	}
	return mod
}

// builtin models the library functions whose meaning the rules need:
// hashing, serialization, number conversion, header reads.
func (c *ctx) builtin(x *ir.Call, mod, name string, recv *value, args, kwargs []*value) (*value, bool) {
	first := &value{}
	if len(args) > 0 {
		first = args[0]
	}
	full := name
	if mod != "" {
		full = mod + ":" + name
	}
	switch {
	case mod == "hashlib" || (mod == "crypto" && name == "createHash"):
		v := union(args...)
		v.digest = lastSeg(mod) + "." + name
		v.digestAt = &report.Related{File: c.file(), Line: x.Pos.Line, Column: x.Pos.Col, Message: v.digest + ": the digest, with no secret"}
		return v, true
	case mod == "hmac" || (mod == "crypto" && name == "createHmac"):
		v := union(args...)
		v.digest = ""
		return v, true
	case full == "json:dumps" || full == "globalThis:JSON.stringify" || full == "pickle:dumps" || full == "orjson:dumps":
		v := union(args...)
		if len(first.fields) > 0 && first.class == "" {
			// The text keeps the object's members: a key among them
			// still leaves in the request body it becomes
			// (fetch(url, { body: JSON.stringify({ idempotency_key: k }) })).
			v.fields = first.fields
		}
		// A dict or object literal built here is an explicit field list;
		// anything else (a parameter, a decoded body, a model object) is
		// serialized whole.
		if len(x.Args) > 0 && (first.fields == nil || first.class != "") {
			switch x.Args[0].(type) {
			case *ir.Name, *ir.Attr, *ir.Index:
				v.payload = strings.Replace(strings.TrimPrefix(full, "globalThis:"), ":", ".", 1) + "(" + exprText(x.Args[0]) + ")"
				v.payloadAt = &report.Related{File: c.file(), Line: x.Pos.Line, Column: x.Pos.Col, Message: v.payload + ": the whole payload, serialized"}
				v.params = serializedParams(v.params)
			}
		}
		return v, true
	case full == "builtins:float" || full == "globalThis:parseFloat" || full == "globalThis:Number.parseFloat":
		v := union(args...)
		v.float = true
		return v, true
	case full == "builtins:int" || full == "builtins:round" || full == "globalThis:Math.round" || full == "globalThis:Math.floor" || full == "globalThis:Math.trunc" || full == "globalThis:parseInt" || full == "decimal:Decimal" || full == "globalThis:BigInt":
		v := union(args...)
		v.float = false
		v.params = integralParams(v.params)
		return v, true
	case full == "globalThis:Proxy":
		// new Proxy(target, handler) stands for its target: what the
		// target is declared to be (new Proxy({} as Stripe, …)), the proxy
		// answers for.
		return first, true
	case full == "globalThis:Headers" || full == "builtins:dict" || full == "globalThis:Object.assign":
		v := &value{fields: map[string]*value{}, local: full == "builtins:dict"} // dict(…) is a literal's twin
		for _, a := range args {
			for k, f := range a.fields {
				v.fields[k] = f
			}
		}
		for i, kv := range x.Kwargs {
			v.fields[kv.Key] = kwargs[i]
		}
		return v, true
	}
	last := name
	if i := strings.LastIndex(name, "."); i >= 0 {
		last = name[i+1:]
	}
	// The client's own key read from the request: request.headers.get(
	// "Idempotency-Key"), req.header("Idempotency-Key"), req.get(…), also
	// on a framework's request global (flask.request.headers.get).
	if (recv != nil || mod != "" && last != name) && first.hasStr && c.e.prog.Model.Headers.Match(first.str) {
		switch last {
		case "get", "header", "getHeader", "get_header":
			return &value{header: true, stable: true}, true
		}
	}
	if recv == nil || mod != "" {
		return nil, false
	}
	if last == "get" && first.hasStr {
		v := c.attr(recv, first.str, x.Pos)
		if len(args) > 1 {
			v = merge(v, args[1])
		}
		return v, true
	}
	// Header setters on a request or client object: headers.set(name, v).
	switch last {
	case "set", "append", "setHeader", "set_header", "header", "putheader", "add_header":
		if first.hasStr && c.e.prog.Model.Headers.Match(first.str) && len(args) > 1 {
			if n, ok := x.Fun.(*ir.Attr); ok {
				if _, local := c.localDict(n.X); local {
					c.storeField(n.X, first.str, args[1], x.Pos)
					return &value{}, true
				}
			}
			c.sink(args[1], x.Pos, "header "+first.str, nil)
			return &value{}, true
		}
	case "update":
		if len(args) == 1 && len(args[0].fields) > 0 {
			if at, ok := x.Fun.(*ir.Attr); ok {
				if h, ok := at.X.(*ir.Attr); ok && keyname.Normalize(h.Name) == "headers" {
					for k, f := range args[0].fields {
						if c.e.prog.Model.Headers.Match(k) {
							c.sink(f, x.Pos, "header "+k, nil)
						}
					}
					return &value{}, true
				}
			}
		}
	}
	return nil, false
}

// scanSinks finds the key in an outbound call's arguments: a keyword
// argument or field named like a key, a header named like an idempotency
// header, in the arguments or in objects nested in them.
func (c *ctx) scanSinks(x *ir.Call, name string, args, kwargs []*value) {
	m := c.e.prog.Model
	for i, kv := range x.Kwargs {
		switch {
		case kv.Key == "**":
			c.scanFields(x, kwargs[i], 0)
			c.spreadSink(x, kwargs[i])
		case m.IsKey(kv.Key):
			// At the argument: in a call over several lines, the line
			// that holds the key.
			c.sink(kwargs[i], argPos(x, kv.Value), kv.Key+"=", nil)
		default:
			c.scanFields(x, kwargs[i], 0)
		}
	}
	for _, a := range args {
		c.scanFields(x, a, 0)
	}
}

func (c *ctx) scanFields(x *ir.Call, v *value, depth int) {
	if v == nil || depth > 3 {
		return
	}
	m := c.e.prog.Model
	for k, f := range v.fields {
		switch {
		case m.Headers.Match(k) && strings.ContainsAny(k, "- "):
			c.sink(f, fieldPos(x, f), "header "+k, nil)
		case m.IsKey(k) || m.Headers.Match(k):
			c.sink(f, fieldPos(x, f), "field "+k, nil)
		default:
			c.scanFields(x, f, depth+1)
		}
	}
}

// sink is a place where v leaves the process as a key.
func (c *ctx) sink(v *value, p ir.Pos, what string, hops []report.Related) {
	site := &sinkSite{file: c.file(), pos: p, what: what, fn: c.fn, inert: c.inert, urlParam: c.urlParam}
	c.judge(whole(v), site, hops, false)
}

// judge reports the per-attempt origins and companion-rule properties of
// a key at a sink, and records the parameters that reach it. persisted
// says a callee wrote the key to the database before the sink.
func (c *ctx) judge(v *value, site *sinkSite, hops []report.Related, persisted bool) {
	if v == nil || v.stable && len(v.origins) == 0 {
		return
	}
	for _, p := range v.params {
		c.addSink(paramSink{param: p, site: site, hops: hops, persisted: persisted || c.persistedParams[p.i]})
	}
	if c.quiet {
		return
	}
	// One finding per key: the first per-attempt value names it, every
	// one is a related position (a helper that falls back from
	// crypto.getRandomValues to Math.random draws with both).
	var drawn, recorded []*origin
	for _, o := range v.origins {
		if site.inert || c.retriedInRoute(o) {
			continue
		}
		if claim, written := c.persisted[o]; (written || persisted || o.stored) && drawnByAttempt(o.kind) {
			if !claim && o.unless == nil {
				recorded = append(recorded, o)
			}
			continue
		}
		if o.unless != nil && c.deferFallback(o, site, hops, persisted) {
			continue
		}
		drawn = append(drawn, o)
	}
	if len(drawn) > 0 || len(recorded) > 0 {
		// Judged at the end, when every caller is known: a key in dead
		// code repeats nothing.
		c.e.drawnAt = append(c.e.drawnAt, drawnKey{fn: c.fn, site: site, drawn: drawn, recorded: recorded, hops: hops})
	}
	c.reportProperties(v, site, hops)
}

// drawnKey is an IDEM001 finding waiting for the end of the analysis: fn
// is the function whose run draws the key.
type drawnKey struct {
	fn    *ir.Func
	site  *sinkSite
	drawn []*origin
	// recorded: drawn, then written to the database by the same attempt
	// before the sink. That settles the key only for an attempt that
	// does not run again: a redelivery draws another and writes another
	// row.
	recorded []*origin
	hops     []report.Related
}

// reportDrawnKeys reports the per-attempt keys found, except those drawn
// in dead code (no caller, no entry, a name nothing mentions).
func (e *engine) reportDrawnKeys() {
	memo, repeats, redelivered := map[*ir.Func]bool{}, map[*ir.Func]bool{}, map[*ir.Func]bool{}
	for _, d := range e.drawnAt {
		if !e.live(d.fn, memo, map[*ir.Func]bool{}) {
			continue
		}
		var drawn []*origin
		for _, o := range d.drawn {
			if !e.retriedByHelperInRoute(d.fn, o, repeats) && !e.retriedByHelperInRoute(e.retriedOnTheWay(d, o), o, repeats) {
				drawn = append(drawn, o)
			}
		}
		if len(drawn) == 0 && len(d.recorded) > 0 && e.redelivered(d.fn, redelivered, map[*ir.Func]bool{}) {
			e.reportRecorded(d.site, d.recorded, d.hops)
			continue
		}
		e.reportDrawn(d.site, drawn, d.hops)
	}
}

// handOff is a function literal handed to a project function: the callee,
// and the argument's index.
type handOff struct {
	to  *ir.Func
	arg int
}

// builderCall models a library's request builder (YooKassa's
// PaymentRequestBuilder, set_confirmation(…) then build()): a setter of
// one argument records the field it names on the builder, and build()
// hands the fields on, so what the request asks is read as from a dict.
func (c *ctx) builderCall(x *ir.Call, recv *value, method string, args, kwargs []*value) (*value, bool) {
	if m := builderSetter.FindStringSubmatch(method); m != nil && len(args) == 1 && len(kwargs) == 0 {
		out := copyFields(recv)
		out.fields[snakeCase(m[1])] = args[0]
		if at, ok := x.Fun.(*ir.Attr); ok {
			if n, ok := at.X.(*ir.Name); ok {
				if _, local := c.env[n.ID]; local {
					c.env[n.ID] = out
				}
			}
		}
		return out, true
	}
	if method == "build" && len(args) == 0 && len(recv.fields) > 0 {
		return copyFields(recv), true
	}
	return nil, false
}

var builderSetter = regexp.MustCompile(`^(?:set_?|with_?)([A-Za-z]\w*)$`)

// snakeCase is a setter's field in snake case: SavePaymentMethod is
// save_payment_method.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// harmlessEndpoint reports a request to a provider's API that the key
// model's Endpoints call harmless: the first entry that its URL (the
// call's first argument, or its url= keyword) and a field of its body
// match says so.
func harmlessEndpoint(t keymodel.Tables, x *ir.Call, args, kwargs []*value) bool {
	url := ""
	if len(x.Args) > 0 {
		url = urlText(x.Args[0], args[0])
	}
	for i, kv := range x.Kwargs {
		if kv.Key == "url" {
			url = urlText(kv.Value, kwargs[i])
		}
	}
	return harmlessURL(t, url, append(append([]*value(nil), args...), kwargs...))
}

// harmlessURL reports a request to url with the body among vals that the
// key model's Endpoints call harmless.
func harmlessURL(t keymodel.Tables, url string, vals []*value) bool {
	if url == "" {
		return false
	}
	if strings.HasPrefix(url, "/") {
		// A path on a client made with its base URL (httpx's base_url,
		// axios's baseURL): the base is not known here.
		url = "…" + url
	}
	// The first entry whose URL and field match decides.
	for _, p := range t.Endpoints {
		if p.FunctionPattern() == nil || !p.FunctionPattern().MatchString(url) {
			continue
		}
		if p.FieldPattern() == nil {
			return p.Kind == "harmless" // the endpoint alone decides
		}
		for _, v := range vals {
			if fp := p.FieldPattern(); fp != nil && v != nil && hasFieldWithin(v, fp, 2) {
				return p.Kind == "harmless"
			}
		}
	}
	return false
}

// urlText is a URL argument's text: its value when known, else its
// literal parts with "…" for each part not known here
// (f"{self.base_url}/payments" is "…/payments").
func urlText(x ir.Expr, v *value) string {
	if v != nil && v.hasStr {
		return v.str
	}
	s, ok := x.(*ir.Str)
	if !ok {
		return ""
	}
	var b strings.Builder
	for _, part := range s.Parts {
		if lit, ok := part.(*ir.Lit); ok && lit.Kind == "str" {
			b.WriteString(lit.Value)
		} else if !strings.HasSuffix(b.String(), "…") {
			b.WriteString("…")
		}
	}
	return b.String()
}

// hasFieldWithin reports a field matching fp in v or in its fields, down
// to depth levels (fetch(url, { body: JSON.stringify({ confirmation }) })).
func hasFieldWithin(v *value, fp *regexp.Regexp, depth int) bool {
	if hasField(v, fp) {
		return true
	}
	if depth == 0 {
		return false
	}
	for _, f := range v.fields {
		if f != nil && hasFieldWithin(f, fp, depth-1) {
			return true
		}
	}
	return false
}

// handToRetry records the functions a retry library's call runs again:
// a function literal or a project function among its arguments.
func (c *ctx) handToRetry(x *ir.Call, args []*value) {
	for i, a := range x.Args {
		if lam, ok := a.(*ir.Lambda); ok {
			c.e.retried[lam.F] = true
		} else if i < len(args) && args[i] != nil && args[i].fn != nil && !args[i].fn.IsClass {
			c.e.retried[args[i].fn] = true
		}
	}
}

// retriedOnTheWay is the function a retry library runs again between the
// function that draws the key and the one that sends it (the sender, or
// its caller): a key handed to a function tenacity's @retry decorates may
// be sent by a helper it calls. The sender when there is none.
func (e *engine) retriedOnTheWay(d drawnKey, o *origin) *ir.Func {
	sender := d.site.fn
	if sender == nil || e.retried[sender] {
		return sender
	}
	for _, c := range e.callers[sender] {
		if e.retried[c] && slices.Contains(e.callers[c], o.fn) {
			return c
		}
	}
	return sender
}

// retriedByLibrary reports a key drawn once by o.fn and sent by sender,
// which a retry library runs again: a literal of o.fn handed to pRetry, or
// a function o.fn calls that tenacity's @retry decorates. Every try sends
// the one key, as in a retry loop.
func (e *engine) retriedByLibrary(sender *ir.Func, o *origin) bool {
	if o.fn == sender || !e.retried[sender] {
		return false
	}
	return sender.Parent == o.fn || slices.Contains(e.callers[sender], o.fn)
}

// retriedByHelperInRoute reports a value drawn once in a function only
// routes reach (or a command run by hand), and sent from a literal of it
// that a retry helper of the project calls in a loop
// (withRetry(() => create(…, { idempotencyKey }))), or that a retry
// library runs again (retriedByLibrary): as with a retry loop
// in the route itself, every try sends the one key, and nothing
// redelivers the request.
func (e *engine) retriedByHelperInRoute(sender *ir.Func, o *origin, repeats map[*ir.Func]bool) bool {
	if !e.retriedByLibrary(sender, o) && (o.fn == sender || sender.Parent != o.fn) {
		return false
	}
	retried := e.retried[sender]
	for _, h := range e.handedLambdas[sender] {
		retried = retried || callsParamInLoop(h.to, h.arg)
	}
	if !retried {
		return false
	}
	if e.entryOf(o.fn) == "route" {
		return true
	}
	return len(e.callersOf(o.fn)) > 0 && !e.mayRepeat(o.fn, repeats, map[*ir.Func]bool{})
}

// callsParamInLoop reports a function that calls its arg-th argument (a
// callback) inside a loop: a retry helper.
func callsParamInLoop(fn *ir.Func, arg int) bool {
	if fn.Class != "" && len(fn.Params) > 0 && fn.Params[0] == "self" {
		arg++ // a Python method's arguments come after self
	}
	if arg >= len(fn.Params) {
		return false
	}
	param := fn.Params[arg]
	found := false
	walkStmts(fn.Body, func(s ir.Stmt) {
		loop, ok := s.(*ir.Loop)
		if !ok || found {
			return
		}
		walkExprs(loop.Body, func(x ir.Expr) {
			if call, ok := x.(*ir.Call); ok {
				if n, ok := call.Fun.(*ir.Name); ok && n.ID == param {
					found = true
				}
			}
		})
	})
	return found
}

// live reports a function something can run: an entry, a function with a
// live caller or a live enclosing function, or one whose callers are out
// of view. Dead code is what unmentioned says: in an application, a method
// nothing calls or names.
func (e *engine) live(fn *ir.Func, memo, visiting map[*ir.Func]bool) bool {
	return memoized(fn, memo, visiting, func() bool { return e.computeLive(fn, memo, visiting) })
}

func (e *engine) computeLive(fn *ir.Func, memo, visiting map[*ir.Func]bool) bool {
	if e.entryOf(fn) != "" || fn.Name == "<module>" || len(e.handedTo[fn]) > 0 {
		return true
	}
	callers := e.callersOf(fn)
	if len(callers) == 0 {
		if fn.Parent != nil && fn.Parent.Name != "<module>" && !fn.Parent.IsClass {
			return e.live(fn.Parent, memo, visiting)
		}
		return !e.unmentioned(fn)
	}
	for _, c := range callers {
		if e.live(c, memo, visiting) {
			return true
		}
	}
	return false
}

// reportDrawn reports IDEM001 for the per-attempt origins drawn that
// reach site: one finding per key, named by the first, every one a
// related position.
func (e *engine) reportDrawn(site *sinkSite, drawn []*origin, hops []report.Related) {
	if len(drawn) > 0 {
		sort.SliceStable(drawn, func(i, j int) bool {
			a, b := drawn[i], drawn[j]
			if a.file != b.file {
				return a.file == site.file // the sink's own file first
			}
			return a.pos.Line < b.pos.Line || a.pos.Line == b.pos.Line && a.pos.Col < b.pos.Col
		})
		o := drawn[0]
		what := o.source + " (" + kindText[o.kind] + ")"
		msg := fmt.Sprintf("idempotency key built from %s; %s: %s", what, e.consequence(o), remedy)
		e.report("IDEM001", site.file, site.pos, msg, drawnRelated(site, drawn, hops))
	}
}

// reportRecorded reports a key the attempt draws and writes to the
// database before acting, in code a redelivery runs again: the write
// records this attempt, and the next one draws another key and writes
// another row, so the write settles nothing.
func (e *engine) reportRecorded(site *sinkSite, recorded []*origin, hops []report.Related) {
	o := recorded[0]
	msg := fmt.Sprintf("idempotency key built from %s (%s), written to the database by the attempt that sends it; a redelivery draws another and writes another row: claim the intent under a stable key first (INSERT … ON CONFLICT on the order's or message's own id) and send the key read back from that row", o.source, kindText[o.kind])
	e.report("IDEM001", site.file, site.pos, msg, drawnRelated(site, recorded, hops))
}

// drawnRelated are an IDEM001 finding's related positions: where each
// per-attempt value is drawn, the way to the sink, and the sink.
func drawnRelated(site *sinkSite, drawn []*origin, hops []report.Related) []report.Related {
	var related []report.Related
	for _, o := range drawn {
		related = append(related, report.Related{File: o.file, Line: o.pos.Line, Column: o.pos.Col, Message: o.source + ": " + kindText[o.kind]})
	}
	related = append(related, reverse(hops)...)
	return append(related, report.Related{File: site.file, Line: site.pos.Line, Column: site.pos.Col, Message: "used as idempotency key: " + site.what})
}

// reportProperties reports the companion rules' properties of a key at
// site: a float, a whole payload, a bare digest.
func (c *ctx) reportProperties(v *value, site *sinkSite, hops []report.Related) {
	if v.float && v.payload == "" { // a float inside a payload serialized whole is IDEM004's: one fix, an explicit field list
		c.e.report("IDEM003", site.file, site.pos, fmt.Sprintf("float value reaches the idempotency key (%s): two attempts can format it differently; carry money as integer cents and put the integer in the key", site.what), reverse(hops))
	}
	if v.payload != "" {
		related := reverse(hops)
		if v.payloadAt != nil {
			related = append([]report.Related{*v.payloadAt}, related...)
		}
		c.e.report("IDEM004", site.file, site.pos, fmt.Sprintf("whole payload serialized into the idempotency key (%s) by %s: the key changes whenever the payload gains a field; serialize an explicit field list with a rules version", site.what, v.payload), related)
	}
	if v.digest != "" && len(v.digestBeside) == 0 && !v.overKey {
		related := reverse(hops)
		if v.digestAt != nil {
			related = append([]report.Related{*v.digestAt}, related...)
		}
		c.e.report("IDEM005", site.file, site.pos, fmt.Sprintf("the idempotency key (%s) is a bare %s digest with no secret: anyone can recompute it from the fields; use HMAC-SHA256 with a secret from the environment", site.what, v.digest), related)
	}
}

func reverse(rs []report.Related) []report.Related {
	out := make([]report.Related, 0, len(rs))
	for i := len(rs) - 1; i >= 0; i-- {
		out = append(out, rs[i])
	}
	return out
}

// claims reports whether an INSERT … ON CONFLICT can meet an earlier
// attempt's row: a value bound to a column the conflict can be on is not
// drawn by this attempt (an order id, not the uuid drawn beside it). A
// statement whose lists cannot be matched to the call's arguments counts
// as a claim: what it decides is not known. single says the SQL is one
// statement, so its anonymous placeholders (%s, ?) number the arguments.
func claims(stmt string, single bool, args []*value) bool {
	bound, ok := sqlquery.ConflictValues(stmt)
	if !ok {
		return true
	}
	pos, named := sqlArguments(args)
	for _, b := range bound {
		v, known := boundArgument(b, single, pos, named)
		if !known {
			return true
		}
		if w := whole(v); w == nil || len(w.origins) == 0 {
			return true
		}
	}
	return false
}

// sqlArguments spreads a query's arguments: a list or tuple gives the
// positional values, a dict the named ones (%(name)s, :name), and
// anything else is one positional value per argument (asyncpg's
// conn.execute(sql, a, b)).
func sqlArguments(args []*value) (pos []*value, named map[string]*value) {
	if len(args) == 1 && args[0] != nil && len(args[0].fields) > 0 {
		if _, list := args[0].fields["$0"]; list {
			for i := 0; ; i++ {
				f, ok := args[0].fields["$"+itoa(i)]
				if !ok {
					return pos, nil
				}
				pos = append(pos, f)
			}
		}
		return nil, args[0].fields
	}
	return args, nil
}

var (
	numberedPlaceholder = regexp.MustCompile(`^\$(\d+)$`)
	namedPlaceholder    = regexp.MustCompile(`^(?:%\((\w+)\)s|[:@](\w+))$`)
	drawingSQL          = regexp.MustCompile(`\b(gen_random_uuid|uuid_generate_v\d\w*|random|now|current_timestamp|clock_timestamp|uuid)\b`)
	placeholderInSQL    = regexp.MustCompile(`\$\d|%s|%\(|\?|[:@]\w`)
)

// boundArgument is the value a VALUES expression binds: a placeholder's
// argument, nothing drawn for a literal, and a per-attempt value for
// SQL that draws one itself (gen_random_uuid(), now()). known is false
// when the expression cannot be matched to an argument.
func boundArgument(b sqlquery.Bound, single bool, pos []*value, named map[string]*value) (v *value, known bool) {
	e := sqlquery.Uncast(b.Expr)
	if m := numberedPlaceholder.FindStringSubmatch(e); m != nil {
		n, _ := strconv.Atoi(m[1])
		if n >= 1 && n <= len(pos) {
			return pos[n-1], true
		}
		return nil, false
	}
	if b.Seq >= 0 {
		if single && b.Seq < len(pos) {
			return pos[b.Seq], true
		}
		return nil, false
	}
	if m := namedPlaceholder.FindStringSubmatch(e); m != nil {
		f, ok := named[m[1]+m[2]]
		return f, ok
	}
	if drawingSQL.MatchString(e) {
		return &value{origins: []*origin{{kind: "random", source: e}}}, true
	}
	if placeholderInSQL.MatchString(e) {
		return nil, false
	}
	return &value{}, true
}

// drawnByAttempt reports a kind of value the attempt itself draws
// (random, clock, counter, model output, a fresh row's id), which writing
// it before acting settles: the write decides, and what is read back is
// the key. A transport's message id, request id or delivery counter is
// handed in by the delivery instead; the next delivery brings its own,
// so a row written under this one's is never the one it finds.
func drawnByAttempt(kind string) bool {
	switch kind {
	case "message-id", "request-id", "attempt":
		return false
	}
	return true
}

// retriedInRoute reports a value drawn once, outside the loop that reuses
// it, in an HTTP route: nothing redelivers a route's request, so the loop
// is the only retry and it sends the same key.
func (c *ctx) retriedInRoute(o *origin) bool {
	return o.fn == c.fn && c.entry == "route" && c.loops > o.loops
}

// persist marks the values a database write stores. claim says the
// write can meet an earlier attempt's row (an INSERT … ON CONFLICT on a
// value this attempt did not draw): only then does it decide for a
// redelivery, which otherwise draws a new value and writes a new row.
func (c *ctx) persist(vs []*value, claim bool) {
	for _, v := range vs {
		w := whole(v)
		if w == nil {
			continue
		}
		for _, o := range w.origins {
			c.persisted[o] = claim || o.keptOnRow || c.persisted[o]
		}
		for _, p := range w.params {
			c.persistedParams[p.i] = true
		}
		for _, p := range v.params {
			if p.path == "" { // the parameter itself, not a part of it
				if c.wholeParams == nil {
					c.wholeParams = map[int]bool{}
				}
				c.wholeParams[p.i] = true
			}
		}
	}
}

// sqlCall handles a call whose first argument is SQL: IDEM007 for a key
// lookup not scoped by tenant; a write stores its parameters; a read
// gives rows read back; an INSERT … RETURNING without ON CONFLICT gives
// the id of a row inserted per attempt.
func (c *ctx) sqlCall(x *ir.Call, recv *value, args []*value) (*value, bool) {
	if len(args) > 0 {
		c.passesSQLText(args[0])
	}
	if len(args) == 0 || !args[0].hasStr || !looksSQL(args[0].str) {
		return nil, false
	}
	sql := sqlquery.Normalize(args[0].str)
	cfg := c.e.prog.Model.Config
	write, fresh, claim := false, false, false
	var counters []sqlquery.ReturnedCounter
	stmts := sqlquery.Statements(sql)
	for _, stmt := range stmts {
		c.tenantScope(x, cfg, stmt)
		counters = append(counters, sqlquery.ReturnedCounters(stmt)...)
		tables, yields := sqlquery.Inserts(stmt)
		if len(tables) > 0 {
			write = true
			if !yields && strings.Contains(stmt, " returning ") {
				fresh = true
			}
			claim = claim || yields && claims(stmt, len(stmts) == 1, args[1:])
		}
		if strings.HasPrefix(stmt, "update") || strings.HasPrefix(stmt, "delete") {
			write = true
		}
	}
	if write {
		c.persist(args[1:], claim)
	}
	v := &value{stable: true}
	if fresh {
		o := &origin{kind: "row", source: "INSERT … RETURNING", file: c.file(), pos: x.Pos, fn: c.fn, loops: c.loops, when: c.cases}
		v = &value{origins: []*origin{o}, rooted: true}
	} else if len(counters) > 0 {
		v = c.returnedCounters(x, counters)
	}
	// psycopg: the cursor holds the result (cur.execute(…); cur.fetchone()).
	if at, ok := x.Fun.(*ir.Attr); ok {
		if n, ok := at.X.(*ir.Name); ok && recv != nil && recv.mod == "" {
			cur := copyFields(recv)
			cur.origins, cur.stable, cur.advanced = v.origins, v.stable, v.advanced
			for k, f := range v.fields {
				cur.fields[k] = f
			}
			if fresh || len(counters) > 0 {
				c.env[n.ID] = cur
			} else if _, local := c.env[n.ID]; local {
				c.env[n.ID] = cur
			}
		}
	}
	return v, true
}

// callsParamOf records a call of this function's parameter (fn(*args,
// **kwargs) in a wrapper that runs what it is handed): its callers' call
// is judged as a call of what they hand it. It reports whether v is one.
func (c *ctx) callsParamOf(v *value) bool {
	i, ok := bareParam(v)
	if !ok || v.fn != nil || v.mod != "" {
		return false
	}
	c.forwards = appendOnce(c.forwards, i)
	return true
}

// bareParam is the index of the parameter v is, itself and nothing made
// of it (not a field of it, not a string built from it).
func bareParam(v *value) (int, bool) {
	if v == nil || v.hasStr || len(v.origins) > 0 || len(v.params) != 1 || v.params[0].path != "" {
		return 0, false
	}
	return v.params[0].i, true
}

// appendOnce adds i to is unless it is there.
func appendOnce(is []int, i int) []int {
	if slices.Contains(is, i) {
		return is
	}
	return append(is, i)
}

// forwarded is the call x makes of its argument i with the arguments
// after it (asyncio.to_thread(stripe.PaymentIntent.create, **params)).
func (c *ctx) forwarded(x *ir.Call, i int) *value {
	return c.call(&ir.Call{Fun: x.Args[i], Args: x.Args[i+1:], Kwargs: x.Kwargs, Pos: x.Pos})
}

// forwardThrough judges, at a call of fn, the calls fn makes of its
// parameters as calls of the arguments the caller hands it
// (_stripe_call(stripe.PaymentIntent.create, **create_kwargs)).
func (c *ctx) forwardThrough(x *ir.Call, fn *ir.Func, recv *value, s *summary) {
	shift := 0
	if recv != nil && len(fn.Params) > 0 && (fn.Params[0] == "self" || fn.Params[0] == "cls") {
		shift = 1
	}
	for _, p := range s.forwards {
		if i := p - shift; i >= 0 && i < len(x.Args) {
			c.forwarded(x, i)
		}
	}
}

// passesSQLText records a parameter of this function handed whole as a
// query's text: a wrapper of the driver (export const query = (text,
// params) => pool.query(text, params)), whose callers' SQL is judged at
// their calls.
func (c *ctx) passesSQLText(v *value) {
	if i, ok := bareParam(v); ok {
		c.sqlText = appendOnce(c.sqlText, i)
	}
}

// wrappedSQL judges a call of a project function that passes its
// parameter on as SQL text, with the caller's string as the query and the
// other arguments as its parameters. ok is false when no such argument
// is SQL.
func (c *ctx) wrappedSQL(x *ir.Call, s *summary, bound []*value) (*value, bool) {
	for _, i := range s.sqlText {
		if i >= len(bound) || bound[i] == nil {
			continue
		}
		if !bound[i].hasStr {
			c.passesSQLText(bound[i]) // a wrapper of a wrapper
			continue
		}
		args := []*value{bound[i]}
		for j, b := range bound {
			if j != i && b != nil {
				args = append(args, b)
			}
		}
		return c.sqlCall(x, nil, args)
	}
	return nil, false
}

// atomicIncrements returns the columns an ORM write advances: Prisma's
// { data: { attempts: { increment: 1 } } }, or the row's own count plus
// one written back ({ data: { retryCount: payout.retryCount + 1 } }).
func atomicIncrements(x *ir.Call, args []*value) []string {
	var cols []string
	for _, a := range args {
		data := a.fields["data"]
		if data == nil {
			continue
		}
		for col, f := range data.fields {
			if _, ok := f.fields["increment"]; ok {
				cols = append(cols, col)
			}
		}
	}
	for _, arg := range x.Args {
		d, ok := arg.(*ir.Dict)
		if !ok {
			continue
		}
		for _, kv := range d.Entries {
			data, ok := kv.Value.(*ir.Dict)
			if kv.Key != "data" || !ok {
				continue
			}
			for _, e := range data.Entries {
				if e.Key != "" && plusOne(e.Value, e.Key) {
					cols = append(cols, e.Key)
				}
			}
		}
	}
	sort.Strings(cols)
	return slices.Compact(cols)
}

// plusOne reports x is col's own value read from a row plus a constant:
// payout.retryCount + 1, (payout as any).retryCount + 1.
func plusOne(x ir.Expr, col string) bool {
	b, ok := x.(*ir.Binary)
	if !ok || b.Op != "+" {
		return false
	}
	if lit, ok := b.R.(*ir.Lit); !ok || lit.Kind != "int" {
		return false
	}
	at, ok := unwrapAs(b.L).(*ir.Attr)
	return ok && at.Name == col
}

// unwrapAs is x without TypeScript's type assertions ((x as any)).
func unwrapAs(x ir.Expr) ir.Expr {
	for {
		b, ok := x.(*ir.Binary)
		if !ok || b.Op != "as" {
			return x
		}
		x = b.L
	}
}

// returnedCounters is the row an UPDATE … SET c = c + 1 … RETURNING c
// hands back: the counter column (by name, and by position for a tuple
// row) is advanced by every attempt that runs the statement, so a key
// made of it differs per attempt; the row's other columns are read back.
func (c *ctx) returnedCounters(x *ir.Call, counters []sqlquery.ReturnedCounter) *value {
	cols := make([]string, len(counters))
	for i, rc := range counters {
		cols[i] = rc.Column
	}
	row := c.counterRow(x, cols, "UPDATE … SET c = c + 1 … RETURNING")
	for _, rc := range counters {
		if rc.Index >= 0 {
			row.fields["$"+itoa(rc.Index)] = row.fields[rc.Column] // a tuple row
		}
	}
	return advancedResult(row)
}

// advancedRow is the result of a write that advanced columns cols and
// handed the row back (how names the write).
func (c *ctx) advancedRow(x *ir.Call, cols []string, how string) *value {
	return advancedResult(c.counterRow(x, cols, how))
}

// counterRow is a row whose columns cols a write advanced; its other
// columns are read back.
func (c *ctx) counterRow(x *ir.Call, cols []string, how string) *value {
	row := &value{stable: true, fields: map[string]*value{}}
	for _, col := range cols {
		o := &origin{kind: "counter", source: col + " advanced by " + how, file: c.file(), pos: x.Pos, fn: c.fn, loops: c.loops, when: c.cases}
		row.fields[col] = &value{origins: []*origin{o}, rooted: true}
	}
	return row
}

// advancedResult is what a call handing back row returns: the row itself
// (asyncpg's fetchrow, a tuple), or node-postgres's result, whose rows[0]
// is the row.
func advancedResult(row *value) *value {
	v := copyFields(row)
	v.advanced = true
	v.fields["rows"] = &value{stable: true, fields: map[string]*value{"$0": row}}
	return v
}

func (c *ctx) tenantScope(x *ir.Call, cfg *config.Config, stmt string) {
	if c.quiet {
		return
	}
	// A constraint named by ON CONFLICT ON CONSTRAINT is not resolved
	// here (nil): not reported rather than guessed.
	for _, msg := range sqlquery.Unscoped(cfg, stmt, nil) {
		c.e.report("IDEM007", c.file(), x.Pos, msg, nil)
	}
}

func hasKind(os []*origin, kind string) bool {
	for _, o := range os {
		if o.kind == kind {
			return true
		}
	}
	return false
}

// Bounds that keep summaries small along long call chains: a parameter
// keeps the first maxSitesPerParam sinks it reaches (each is reported
// where it is, so more sites of one parameter add findings, not kinds),
// and a path keeps its first and last hops.
const (
	maxSitesPerParam = 8
	maxHops          = 6
)

func (c *ctx) addSink(ps paramSink) {
	n := 0
	for _, old := range c.sinks {
		if old.param.i != ps.param.i {
			continue
		}
		if old.site == ps.site && old.param.path == ps.param.path && old.fallback == ps.fallback {
			return
		}
		n++
	}
	if n >= maxSitesPerParam {
		return
	}
	if len(ps.hops) > maxHops {
		hops := append([]report.Related(nil), ps.hops[:maxHops/2]...)
		ps.hops = append(hops, ps.hops[len(ps.hops)-maxHops/2:]...)
	}
	c.sinks = append(c.sinks, ps)
}

// constructedFields is the fields of an external class's instance built
// from one dict or object literal (`new Order({ … })`), nil for any other
// call: an unknown function may compute anything from its arguments, but a
// constructor given the fields keeps them.
func constructedFields(x *ir.Call, args, kwargs []*value) map[string]*value {
	if !x.New || len(args) != 1 || len(kwargs) != 0 || args[0] == nil || len(args[0].fields) == 0 {
		return nil
	}
	if _, ok := x.Args[0].(*ir.Dict); !ok {
		return nil
	}
	return args[0].fields
}

// spreadArgs expands the arguments spread from a list literal
// (f(...[tenant, email, Date.now()])) into the positions they fill, so
// each parameter gets its element, not the whole list. A list handed in
// as a parameter (f(...params.parts)) gives each position the element a
// caller's list has there ($0, $1, … of the parameter's path), up to
// the callee's n parameters. Any other spread stays one argument, and
// the positions after it are unknown.
func spreadArgs(x *ir.Call, args []*value, n int) []*value {
	if len(x.Spread) == 0 {
		return args
	}
	var out []*value
	for i, a := range args {
		if !x.IsSpread(i) {
			out = append(out, a)
			continue
		}
		if elems, ok := listElems(a); ok {
			out = append(out, elems...)
			continue
		}
		if a != nil && len(a.params) > 0 && len(a.origins) == 0 && len(a.fields) == 0 {
			for k, start := 0, len(out); start+k < n; k++ {
				out = append(out, field(a, "$"+strconv.Itoa(k)))
			}
			continue
		}
		return append(out, a)
	}
	return out
}

// listElems are the elements of a list literal's value, in order.
func listElems(v *value) ([]*value, bool) {
	if v == nil || !v.local || len(v.fields) == 0 {
		return nil, false
	}
	elems := make([]*value, len(v.fields))
	for k, f := range v.fields {
		i, err := strconv.Atoi(strings.TrimPrefix(k, "$"))
		if err != nil || !strings.HasPrefix(k, "$") || i >= len(elems) {
			return nil, false
		}
		elems[i] = f
	}
	return elems, true
}
