package flow

import (
	"maps"
	"regexp"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/keyname"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
	"github.com/idemcheck/idemcheck/analyzer/report"
)

// ctx evaluates one function body.
type ctx struct {
	e     *engine
	fi    *fileInfo
	fn    *ir.Func
	entry string
	env   map[string]*value
	outer map[string]*value
	quiet bool // evaluating for values only: report nothing
	inert bool // scanning the arguments of an SDK call that moves no money
	// urlParam: 1 + the index of the parameter the URL of the outbound
	// request being scanned comes from (fetch(`${BASE}${path}`, …)), so
	// each caller judges the endpoint it names; 0 otherwise.
	urlParam int

	// persisted: written to the database before this point on every
	// path; true when the write is a claim that can meet an earlier
	// attempt's row (see persist).
	persisted       map[*origin]bool
	persistedParams map[int]bool
	loops           int
	retryLoops      int // how many enclosing loops try again until something succeeds

	result *value
	sinks  []paramSink
	// sqlText: the parameters this function hands, whole, to a database
	// call as its SQL (query(text, params) => pool.query(text, params)).
	sqlText []int
	// returned: the origins of returned values, true while every return
	// so far came after a database write of them.
	returned map[*origin]bool
	// wholeParams: parameters some write stores whole (session.add(obj)).
	wholeParams map[int]bool
	// forwards: parameters this function calls (a wrapper that runs the
	// function it is handed).
	forwards []int
	// persistedAtReturns: the parameters written at every return so far
	// (nil before the first).
	persistedAtReturns map[int]bool
	// cases: the tests of parameters against string literals that hold
	// on the path being evaluated (see cases.go).
	cases []paramCase
	// loopStack: the loops enclosing the statement being evaluated.
	loopStack []*ir.Loop
}

func (c *ctx) file() string { return c.fi.f.Path }

// notePersistedAtReturn keeps the parameters written on every path that
// returned so far: an early return before repo.add(order) leaves order
// unwritten for the callers it returns to.
func (c *ctx) notePersistedAtReturn() {
	if c.persistedAtReturns == nil {
		c.persistedAtReturns = maps.Clone(c.persistedParams)
		if c.persistedAtReturns == nil {
			c.persistedAtReturns = map[int]bool{}
		}
		return
	}
	for p := range c.persistedAtReturns {
		if !c.persistedParams[p] {
			delete(c.persistedAtReturns, p)
		}
	}
}

// noteReturned records which of a returned value's origins the function
// wrote to the database before returning them.
func (c *ctx) noteReturned(v *value) {
	w := whole(v)
	if w == nil {
		return
	}
	if c.returned == nil {
		c.returned = map[*origin]bool{}
	}
	for _, o := range w.origins {
		if stored, seen := c.returned[o]; !seen || stored {
			_, written := c.persisted[o]
			c.returned[o] = written
		}
	}
}

func (c *ctx) block(ss []ir.Stmt) {
	saved := c.cases
	for _, s := range ss {
		c.stmt(s)
		c.afterReturningIf(s)
	}
	c.cases = saved
}

func (c *ctx) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Assign:
		c.assign(s)
	case *ir.ExprStmt:
		c.eval(s.X)
	case *ir.Return:
		if s.X != nil {
			v := c.eval(s.X)
			c.result = merge(c.result, v)
			c.noteReturned(v)
		}
		c.notePersistedAtReturn()
	case *ir.If:
		c.eval(s.Cond)
		test, tested := c.caseTest(s.Cond)
		at := absentAttr(s.Cond)
		var was *value
		if at != nil && len(s.Else) == 0 {
			was = c.eval(at)
		}
		before := c.snapshot()
		c.withCase(test, tested, func() { c.block(s.Then) })
		if name := absenceTest(s.Cond); name != "" && len(s.Else) == 0 {
			// if not key: key = str(uuid4()): a fallback for a key
			// handed in.
			if g := c.guardOf(before.env[name]); g != nil && c.env[name] != before.env[name] && c.env[name] != nil && len(c.env[name].origins) > 0 {
				c.env[name] = drawnUnder(c.env[name], g)
			}
		}
		if was != nil {
			c.keepOnRow(at, was)
		}
		then := c.snapshot()
		c.restore(before)
		c.withCase(test.negate(), tested, func() { c.block(s.Else) })
		c.join(then)
	case *ir.Loop:
		before := c.snapshot()
		c.loops++
		c.loopStack = append(c.loopStack, s)
		retry := retryLoop(s)
		if retry {
			c.retryLoops++
		}
		for i := 0; i < 2; i++ {
			c.block(s.Head)
			c.block(s.Body)
		}
		if retry {
			c.retryLoops--
		}
		c.loopStack = c.loopStack[:len(c.loopStack)-1]
		c.loops--
		c.join(before)
	case *ir.Try:
		c.block(s.Body)
		after := c.snapshot()
		c.block(s.Handlers)
		c.join(after)
		c.block(s.Finally)
	case *ir.FuncDef:
		c.env[s.Name] = &value{fn: s.F, file: c.fi.f}
	}
}

type snapshot struct {
	env       map[string]*value
	persisted map[*origin]bool
	params    map[int]bool
}

func (c *ctx) snapshot() snapshot {
	s := snapshot{env: make(map[string]*value, len(c.env)), persisted: make(map[*origin]bool, len(c.persisted)), params: make(map[int]bool, len(c.persistedParams))}
	for k, v := range c.env {
		s.env[k] = v
	}
	for k, claim := range c.persisted {
		s.persisted[k] = claim
	}
	for k := range c.persistedParams {
		s.params[k] = true
	}
	return s
}

func (c *ctx) restore(s snapshot) {
	c.env, c.persisted, c.persistedParams = s.env, s.persisted, s.params
	c.env = make(map[string]*value, len(s.env))
	for k, v := range s.env {
		c.env[k] = v
	}
	c.persisted = map[*origin]bool{}
	for k, claim := range s.persisted {
		c.persisted[k] = claim
	}
	c.persistedParams = map[int]bool{}
	for k := range s.params {
		c.persistedParams[k] = true
	}
}

// join merges the other path into the current one: a variable may hold
// either path's value; a write is persisted only if both paths made it.
func (c *ctx) join(other snapshot) {
	for k, v := range c.env {
		if _, both := other.env[k]; !both {
			c.env[k] = merge(v, c.bound(k))
		}
	}
	for k, v := range other.env {
		if cur, ok := c.env[k]; ok {
			c.env[k] = merge(cur, v)
		} else {
			c.env[k] = merge(v, c.bound(k))
		}
	}
	for o, claim := range c.persisted {
		if otherClaim, written := other.persisted[o]; written {
			c.persisted[o] = claim && otherClaim
		} else if !o.keptOnRow {
			delete(c.persisted, o)
		}
	}
	for o, claim := range other.persisted {
		if _, written := c.persisted[o]; !written && o.keptOnRow {
			// Drawn on that path only (if not row.key: …): the other
			// path has no such value to leave unwritten.
			c.persisted[o] = claim
		}
	}
	for p := range c.persistedParams {
		if !other.params[p] {
			delete(c.persistedParams, p)
		}
	}
}

func (c *ctx) assign(s *ir.Assign) {
	v := c.eval(s.Value)
	if s.Op == "||" || s.Op == "??" {
		// key ??= randomUUID(): the key handed in, or a fallback.
		c.store(s.Target, c.orElse(c.eval(s.Target), v), s.Pos)
		return
	}
	if s.Op != "" {
		old := c.eval(s.Target)
		if lit, ok := s.Value.(*ir.Lit); ok && lit.Kind == "int" && (s.Op == "+" || s.Op == "-") && !old.stable && c.drawsCount(s.Target) {
			// x += 1: a counter this process increments.
			o := &origin{kind: "counter", source: exprText(s.Target) + " " + s.Op + "= 1", file: c.file(), pos: s.Pos, fn: c.fn, loops: c.loops, when: c.cases}
			v = union(old, v)
			v.origins = mergeOrigins([]*origin{o}, v.origins)
		} else {
			v = union(old, v)
			if s.Op == "/" {
				v.float = true
			}
		}
	}
	c.store(s.Target, v, s.Pos)
}

// store binds target to v.
func (c *ctx) store(target ir.Expr, v *value, p ir.Pos) {
	switch t := target.(type) {
	case *ir.Name:
		c.env[t.ID] = v
	case *ir.Attr:
		c.storeField(t.X, t.Name, v, p)
	case *ir.Index:
		key := t.KeyStr
		if key == "" {
			if k := c.eval(t.Key); k.hasStr {
				key = k.str
			}
		}
		if key == "" {
			obj := c.eval(t.X)
			if n, ok := t.X.(*ir.Name); ok {
				c.env[n.ID] = union(obj, v)
			}
			return
		}
		c.storeField(t.X, key, v, p)
	case *ir.Pattern:
		for i, el := range t.Elems {
			var ev *value
			if lst, ok := v.fields["$"+itoa(i)]; ok {
				ev = lst
			} else {
				ev = element(v)
			}
			c.store(el, ev, p)
		}
		for _, kv := range t.Keys {
			c.store(kv.Value, field(v, kv.Key), p)
		}
	}
}

// storeField writes obj.name = v. A header set on a client or request
// object that leaves the process (session.headers["Idempotency-Key"] = k)
// is a sink; a field of a local dict or object is remembered.
func (c *ctx) storeField(objX ir.Expr, name string, v *value, p ir.Pos) {
	if at, ok := objX.(*ir.Attr); ok && keyname.Normalize(at.Name) == "headers" && c.e.prog.Model.Headers.Match(name) {
		if _, local := c.localDict(at.X); !local && !c.eval(at.X).incoming {
			// The request this process answers keeps the header here.
			c.sink(v, p, "header "+name, nil)
		}
	}
	n, ok := objX.(*ir.Name)
	if !ok {
		// a.b.c = v: store into a.b's value when a is local.
		if at, ok := objX.(*ir.Attr); ok {
			inner := c.eval(at)
			cp := copyFields(inner)
			cp.fields[name] = v
			c.storeField(at.X, at.Name, cp, p)
		}
		return
	}
	obj := c.lookup(n.ID)
	cp := copyFields(obj)
	cp.fields[name] = v
	c.env[n.ID] = cp
}

func (c *ctx) localDict(x ir.Expr) (*value, bool) {
	n, ok := x.(*ir.Name)
	if !ok {
		return nil, false
	}
	v, ok := c.env[n.ID]
	return v, ok && v.fields != nil && v.mod == ""
}

func copyFields(v *value) *value {
	cp := &value{}
	if v != nil {
		*cp = *v
	}
	cp.fields = make(map[string]*value, len(cp.fields)+1)
	if v != nil {
		for k, f := range v.fields {
			cp.fields[k] = f
		}
	}
	return cp
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// bound is what a name holds on a path that did not assign it here: the
// module's import, function or global of that name (try: from x import
// f / except ImportError: f = None holds f on the first path), or nil.
func (c *ctx) bound(id string) *value {
	if v, ok := c.outer[id]; ok {
		return v
	}
	if c.fn != c.fi.f.Module {
		if v, ok := c.fi.globals[id]; ok {
			return v
		}
	}
	if im, ok := c.fi.imports[id]; ok {
		return c.importValue(c.fi, im)
	}
	if d, ok := c.fi.defs[id]; ok {
		return &value{fn: d, file: c.fi.f}
	}
	return nil
}

// lookup resolves a name: a local, a variable of the enclosing function,
// a global of the file, an import, a top-level definition, or a global of
// the language.
func (c *ctx) lookup(id string) *value {
	if v, ok := c.env[id]; ok {
		return v
	}
	if v := c.bound(id); v != nil {
		return v
	}
	if id == "self" || id == "this" {
		return &value{class: c.fn.Class}
	}
	if c.fi.f.Lang == "python" {
		// from .helpers import *: the names are this file's too (an
		// export * from in TypeScript binds none here).
		if v, ok := c.starMember(c.fi, id); ok {
			return v
		}
	}
	root := "globalThis"
	if c.fi.f.Lang == "python" {
		root = "builtins"
	} else if id == "globalThis" || id == "window" || id == "global" {
		// globalThis.crypto is the global crypto.
		return &value{mod: root, isMod: true}
	}
	return &value{mod: root, chain: id, isMod: true}
}

// importValue is the value an import binds: a project function, class or
// module when the module resolves inside the project, else an external
// module member.
func (c *ctx) importValue(fi *fileInfo, im ir.Import) *value {
	if c.e.prog.Resolve != nil {
		if fi.f.Lang == "python" && im.Name != "" && im.Name != "*" {
			// from pkg import mod: a submodule before a member.
			sub := im.Module + "." + im.Name
			if strings.HasSuffix(im.Module, ".") {
				sub = im.Module + im.Name
			}
			if target := c.e.prog.Resolve(fi.f, sub); target != nil && c.e.files[target] != nil {
				return &value{modFile: target}
			}
		}
		if target := c.e.prog.Resolve(fi.f, im.Module); target != nil {
			tfi := c.e.files[target]
			if tfi != nil {
				name := im.Name
				if name == "" {
					if v, ok := c.member(tfi, ir.CommonJSExports); ok {
						return v // require("./m") of module.exports = …
					}
				}
				if name == "" || name == "*" {
					return &value{modFile: target}
				}
				return c.memberOf(tfi, name)
			}
		}
	}
	chain := im.Name
	if chain == "default" {
		chain = ""
	}
	return &value{mod: normModule(im.Module), chain: chain, isMod: true}
}

// memberOf is a top-level name of a project file.
func (c *ctx) memberOf(fi *fileInfo, name string) *value {
	if v, ok := c.member(fi, name); ok {
		return v
	}
	return &value{}
}

// member is memberOf, and whether the file has that name at all.
func (c *ctx) member(fi *fileInfo, name string) (*value, bool) {
	if d, ok := fi.defs[name]; ok {
		return &value{fn: d, file: fi.f}, true
	}
	if fi.globals == nil {
		c.e.moduleEnv(fi)
	}
	if v, ok := fi.globals[name]; ok {
		return v, true
	}
	if im, ok := fi.imports[name]; ok && fi != c.fi {
		return c.importValue(fi, im), true
	}
	return c.starMember(fi, name)
}

// starMember is a name a file takes from a project module whole (export *
// from "./x", from .x import *), looked up in that module.
func (c *ctx) starMember(fi *fileInfo, name string) (*value, bool) {
	if fi.starBusy || c.e.prog.Resolve == nil {
		return nil, false
	}
	fi.starBusy = true // export * cycles between barrel files
	defer func() { fi.starBusy = false }()
	for _, im := range fi.stars {
		target := c.e.prog.Resolve(fi.f, im.Module)
		if tfi := c.e.files[target]; target != nil && tfi != nil {
			if v, ok := c.member(tfi, name); ok {
				return v, true
			}
		}
	}
	return nil, false
}

func (c *ctx) eval(x ir.Expr) *value {
	switch x := x.(type) {
	case nil:
		return &value{}
	case *ir.Name:
		return c.lookup(x.ID)
	case *ir.Lit:
		v := &value{}
		switch x.Kind {
		case "str":
			v.str, v.hasStr = x.Value, true
		case "float":
			v.float = true
		case "none":
			v.none = true
		case "bool":
			v.falseLit = strings.EqualFold(x.Value, "false")
		}
		return v
	case *ir.Attr:
		return c.attr(c.eval(x.X), x.Name, x.Pos)
	case *ir.Index:
		return c.index(x, c.eval(x.X))
	case *ir.Call:
		return c.call(x)
	case *ir.Str:
		return c.str(x)
	case *ir.Binary:
		return c.binary(x)
	case *ir.Dict:
		v := &value{fields: map[string]*value{}, local: true}
		for _, s := range x.Spreads {
			sv := c.eval(s)
			for k, f := range sv.fields {
				v.fields[k] = f
			}
			if len(sv.fields) == 0 {
				v.origins = mergeOrigins(v.origins, sv.origins)
				v.params = mergeParams(v.params, sv.params)
			}
		}
		for _, kv := range x.Entries {
			fv := c.eval(kv.Value)
			key := kv.Key
			if key == "" && kv.KeyX != nil {
				if k := c.eval(kv.KeyX); k.hasStr {
					key = k.str
				}
			}
			if key == "" {
				v.origins = mergeOrigins(v.origins, fv.origins)
				continue
			}
			if p := ir.PosOf(kv.Value); p.Line > 0 {
				at := *fv
				at.at = p
				fv = &at
			}
			v.fields[key] = fv
		}
		return v
	case *ir.List:
		v := &value{fields: map[string]*value{}, local: true}
		for i, el := range x.Elems {
			v.fields["$"+itoa(i)] = c.eval(el)
		}
		return v
	case *ir.Lambda:
		return &value{fn: x.F, file: c.fi.f}
	case *ir.Other:
		var vs []*value
		for _, el := range x.Xs {
			vs = append(vs, c.eval(el))
		}
		return union(vs...)
	case *ir.Pattern:
		return &value{}
	}
	return &value{}
}

func (c *ctx) binary(x *ir.Binary) *value {
	if x.Op == "as" {
		return c.typeAssertion(x)
	}
	l, r := c.eval(x.L), c.eval(x.R)
	switch x.Op {
	case "or", "||", "??", "?:":
		// key = request.headers.get("Idempotency-Key") or …: the client's
		// key when it sends one. A conditional is one branch or the other.
		if isGlobal(l) && r != nil && r.mod != "" && !isGlobal(r) {
			// global.prisma ?? new PrismaClient(): a cached instance of
			// what the right side makes; its module says what it is.
			return merge(r, l)
		}
		if x.Op == "?:" {
			return merge(l, r)
		}
		return c.orElse(l, r)
	case "and", "&&", "==", "!=", "===", "!==", "<", ">", "<=", ">=", "in", "not in", "is", "is not", "instanceof":
		return &value{}
	}
	v := union(l, r)
	if x.Op == "/" && !isBigInt(x.L) && !isBigInt(x.R) {
		v.float = true
	}
	return v
}

// isBigInt reports a BigInt literal (62n): its division is an integer's.
func isBigInt(x ir.Expr) bool {
	l, ok := x.(*ir.Lit)
	return ok && l.Kind == "int" && strings.HasSuffix(l.Value, "n")
}

// isGlobal reports a value read from the language's globals (global.x,
// globalThis.x, a builtin).
func isGlobal(v *value) bool {
	return v != nil && (v.mod == "globalThis" || v.mod == "builtins")
}

// index reads obj[key] of x, obj being x.X's value: a field by a constant
// key, an element otherwise.
func (c *ctx) index(x *ir.Index, obj *value) *value {
	key := x.KeyStr
	var k *value
	if key == "" && x.Key != nil {
		k = c.eval(x.Key)
		if k.hasStr {
			key = k.str
		}
	}
	if key != "" {
		return c.attr(obj, key, x.Pos)
	}
	if x.Key == nil {
		return element(obj)
	}
	if lst, ok := x.Key.(*ir.Lit); ok && lst.Kind == "int" {
		if f, ok := obj.fields["$"+lst.Value]; ok {
			return f
		}
	}
	if obj.hasStr && k != nil {
		// ALPHABET[r]: a character of a constant picked by the index
		// is as random (or as clock-made) as the index.
		return union(element(obj), k)
	}
	return element(obj)
}

// typeAssertion is x as T: x, or an instance of T's SDK client when T
// names one (a Proxy typed as Stripe that forwards to a lazy client).
func (c *ctx) typeAssertion(x *ir.Binary) *value {
	v := c.eval(x.L)
	typ, tv := c.e.declaredType(c.fi, x.R)
	if client := c.e.sdkInstance(c.fi, typ, tv); client != nil {
		return client
	}
	return v
}

// str evaluates string building: the taint of every part; the constant
// value when every part is constant (SQL assembled from literals).
func (c *ctx) str(x *ir.Str) *value {
	var vs, raw []*value
	var b strings.Builder
	allConst := true
	for _, p := range x.Parts {
		v := c.eval(p)
		raw = append(raw, v)
		vs = append(vs, whole(v))
		if v.hasStr {
			b.WriteString(v.str)
		} else {
			allConst = false
			b.WriteString(" $1 ")
		}
	}
	v := union(vs...)
	v.str, v.hasStr = b.String(), allConst || looksSQL(b.String())
	if v.digest != "" {
		// order-{id}-{sha256(items)[:12]}: a composite key whose digest
		// shortens one part is not a bare digest. A part that is a
		// parameter is known at the call: a constant there ("charge:")
		// adds nothing anyone could not guess.
		readable, beside := readableParts(parts(raw))
		if readable {
			v.digest = ""
		}
		v.digestBeside = beside
	}
	return v
}

// parts is vs with the elements of a list literal (joined) one by one.
func parts(vs []*value) []*value {
	var out []*value
	for _, p := range vs {
		if p != nil && p.local && len(p.fields) > 0 {
			for _, f := range p.fields {
				out = append(out, parts([]*value{f})...)
			}
			continue
		}
		out = append(out, p)
	}
	return out
}

// readableParts reports whether a part beside a digest varies and is no
// digest (a field, a row's column, a value drawn here), and which
// parameters stand for parts the caller decides.
func readableParts(ps []*value) (readable bool, beside []paramRef) {
	for _, p := range ps {
		if p == nil || p.digest != "" || p.hasStr || p.none {
			continue
		}
		if len(p.origins) == 0 && len(p.params) > 0 {
			beside = mergeParams(beside, p.params)
			continue
		}
		readable = true
	}
	return readable, beside
}

// constant reports a value known when written: a string, None, or a list
// of them.
func constant(v *value) bool {
	if v == nil || v.hasStr || v.none {
		return true
	}
	if v.local && len(v.fields) > 0 && len(v.origins) == 0 && len(v.params) == 0 {
		for _, f := range v.fields {
			if !constant(f) {
				return false
			}
		}
		return true
	}
	return false
}

var sqlStart = regexp.MustCompile(`(?is)^\s*(select|insert|update|delete|with|merge|replace|upsert)\b`)

func looksSQL(s string) bool { return sqlStart.MatchString(s) }

// attr reads obj.name: a project module's member, a class's method, a
// module member, or a field, and a transport envelope's identity.
func (c *ctx) attr(obj *value, name string, p ir.Pos) *value {
	switch {
	case obj.modFile != nil:
		if tfi := c.e.files[obj.modFile]; tfi != nil {
			return c.memberOf(tfi, name)
		}
	case obj.fn != nil && obj.fn.IsClass:
		if tfi := c.e.fileOf(obj); tfi != nil {
			if m, ok := tfi.methods[obj.fn.Class+"."+name]; ok {
				return &value{fn: m, file: tfi.f}
			}
		}
	case obj.class != "":
		if m, ok := c.classMethod(obj, name); ok {
			method := &value{fn: m.fn, file: m.file, recv: obj}
			if isProperty(m.fn) {
				// obj.key runs the getter: a key it draws is drawn at
				// every read.
				return c.callProject(&ir.Call{Fun: &ir.Attr{Name: name, Pos: p}, Pos: p}, method, obj, nil, nil)
			}
			return method
		}
	}
	v := field(obj, name)
	if v != nil && v.lib == "" && obj.class != "" {
		if lib := c.e.fieldLib(c.fi, obj, name); lib != "" {
			cp := *v
			cp.lib = lib // self.session: the AsyncSession the constructor was handed
			v = &cp
		}
	}
	if v != nil && v.digest == "" && !v.overKey && c.e.prog.Model.IsKey(name) {
		// Only a key handed in or read back marks what it goes into; a
		// digest stored under a key's name stays the digest it is.
		cp := *v
		cp.overKey = true
		v = &cp
	}
	if v.rooted && v.path != "" && !v.stable {
		if o := c.transport(v, p); o != nil {
			v.origins = mergeOrigins([]*origin{o}, v.origins)
		}
	}
	return v
}

// isProperty reports a method read as an attribute: Python's @property
// (and Django's @classproperty); not @cached_property, whose value is
// kept.
func isProperty(fn *ir.Func) bool {
	for _, d := range fn.Decorators {
		switch ir.Dotted(d) {
		case "property", "classproperty", "functional.classproperty":
			return true
		}
	}
	return false
}

type method struct {
	fn   *ir.Func
	file *ir.File
}

// classMethod finds a method of obj's class: in the file that defines the
// class when obj was constructed from another module's class, else in
// this file (self, this).
func (c *ctx) classMethod(obj *value, name string) (method, bool) {
	fi := c.fi
	if obj.classFile != nil {
		if tfi := c.e.files[obj.classFile]; tfi != nil {
			fi = tfi
		}
	}
	if m, ok := fi.methods[obj.class+"."+name]; ok {
		return method{m, fi.f}, true
	}
	return method{}, false
}

// fieldLib is the library of obj's field name when obj's class's
// constructor sets it to an argument of that library's declared type.
func (e *engine) fieldLib(fi *fileInfo, obj *value, name string) string {
	f := fi.f
	if obj.classFile != nil {
		f = obj.classFile
	}
	if tfi := e.files[f]; tfi != nil {
		e.instanceFields(tfi, obj.class)
	}
	return e.instanceLibs[classRef{f, obj.class}][name]
}

func (e *engine) fileOf(v *value) *fileInfo {
	if v.file == nil {
		return nil
	}
	return e.files[v.file]
}

// transport returns the origin of a field read from a delivery's envelope.
func (c *ctx) transport(v *value, p ir.Pos) *origin {
	for _, t := range c.fi.tables.Transport {
		re := t.FieldPattern()
		if re == nil || !re.MatchString(v.path) {
			continue
		}
		if t.Receiver == "consumer" && !v.consumer {
			continue
		}
		kind := t.Kind
		return &origin{kind: kind, source: v.path, file: c.file(), pos: p, fn: c.fn, loops: c.loops, when: c.cases}
	}
	return nil
}

func exprText(x ir.Expr) string {
	if d := ir.Dotted(x); d != "" {
		return d
	}
	switch x := x.(type) {
	case *ir.Index:
		if x.KeyStr != "" {
			return exprText(x.X) + `["` + x.KeyStr + `"]`
		}
		return exprText(x.X) + "[…]"
	case *ir.Call:
		return exprText(x.Fun) + "(…)"
	}
	return "…"
}

func (c *ctx) rel(p ir.Pos, msg string) report.Related {
	return report.Related{File: c.file(), Line: p.Line, Column: p.Col, Message: msg}
}

// drawsCount reports an increment that counts attempts: one of this
// process's state (a field, a module variable: it goes on counting across
// messages and restarts), or a local counter of a retry loop, where each
// try that failed is sent again under the next number. A local counted in
// a loop over items or pages, or once, is a function of the input: every
// attempt counts the same.
func (c *ctx) drawsCount(target ir.Expr) bool {
	n, ok := target.(*ir.Name)
	if !ok || !c.localName(n.ID) {
		return true
	}
	return c.retryLoops > 0 && !c.indexesItems(n.ID)
}

// indexesItems reports a counter an enclosing loop reads its items by
// (for (i = 0; …; i += 1) { const option = options[i]; … }): it numbers
// the alternatives a redelivery walks in the same order, not the tries.
func (c *ctx) indexesItems(id string) bool {
	for _, l := range c.loopStack {
		found := false
		walkExprs(append(append([]ir.Stmt(nil), l.Head...), l.Body...), func(x ir.Expr) {
			if ix, ok := x.(*ir.Index); ok {
				if n, ok := ix.Key.(*ir.Name); ok && n.ID == id {
					found = true
				}
			}
		})
		if found {
			return true
		}
	}
	return false
}

// localName reports a name this function declares (its own variable),
// not a module's or an enclosing function's.
func (c *ctx) localName(id string) bool {
	if c.fn == nil || c.fi == nil || c.fn == c.fi.f.Module {
		return false
	}
	return c.e.declaredNames(c.fi, c.fn)[id]
}

// retryLoop reports a loop that tries again until something succeeds: its
// body leaves it (break or return) on a condition or from a try, not only
// when the loop's own condition ends it. A loop over items or pages that
// runs every iteration is not one.
func retryLoop(l *ir.Loop) bool {
	var exits func(ss []ir.Stmt, guarded bool) bool
	exits = func(ss []ir.Stmt, guarded bool) bool {
		for _, s := range ss {
			switch s := s.(type) {
			case *ir.Break, *ir.Return:
				if guarded {
					return true
				}
			case *ir.If:
				if exits(s.Then, true) || exits(s.Else, true) {
					return true
				}
			case *ir.Try:
				if exits(s.Body, true) || exits(s.Handlers, true) {
					return true
				}
			}
		}
		return false
	}
	return exits(l.Body, false)
}
