package attemptkey

// Propagation: the fixed point over instructions and calls.

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

// maxRounds bounds the fixed-point iteration (-IDEM001.maxrounds); real
// packages converge in a handful of rounds, since callees are visited
// before their callers.
var maxRounds = 12

// solve propagates to a fixed point.
func (e *engine) solve() {
	e.markReadBack()
	sccs := e.recursiveSCCs()
	for round := 0; round < maxRounds; round++ {
		e.changed, e.changedIn = false, nil
		for _, f := range e.funcs {
			e.visitFunc(f)
			if scc := sccs[f]; round == 0 && scc != nil {
				e.settle(scc)
			}
		}
		e.checkSinks()
		if statsEnabled {
			n := 0
			for _, es := range e.mem {
				n += len(es)
			}
			fmt.Fprintf(os.Stderr, "attemptkey: %s round %d entries %d roots %d funcs %d\n", e.pass.Pkg.Path(), round, n, len(e.mem), len(e.funcs))
		}
		if !e.changed {
			break
		}
		if round == maxRounds-1 {
			where := ""
			if e.changedIn != nil {
				where = " in " + funcDisplay(e.changedIn)
			}
			e.capped = append(e.capped, fmt.Sprintf("propagation stopped after %d rounds before reaching a fixed point%s; raise the bound with --analyzer-flag -IDEM001.maxrounds=N", maxRounds, where))
		}
	}
	e.computePersists()
}

func (e *engine) visitFunc(f *ssa.Function) {
	e.cur = f
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			e.visit(f, instr)
		}
	}
}

// settle visits the functions of a recursive component again until they
// change nothing. Each pass only adds to a finite set of (location, label)
// pairs, so it stops; the rounds after the first check the whole package,
// where closures and globals share locations across components.
func (e *engine) settle(scc []*ssa.Function) {
	changed := e.changed
	for {
		e.changed = false
		for _, f := range scc {
			e.visitFunc(f)
		}
		if !e.changed {
			break
		}
		changed = true
	}
	e.changed = changed
}

func (e *engine) visit(f *ssa.Function, instr ssa.Instruction) {
	e.curInstr = instr
	switch in := instr.(type) {
	case *ssa.Store:
		e.copyInto(e.addrKey(in.Addr), e.valKey(in.Val))
	case *ssa.Phi:
		for _, ed := range in.Edges {
			e.copyInto(key{in, ""}, e.valKey(ed))
		}
		if pos, ok := e.localCounter(in); ok {
			e.add(key{in, ""}, e.originLabel(e.sourceAt(pos, "variable "+in.Comment, kindCounter)))
		}
	case *ssa.BinOp:
		switch in.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		default:
			e.addAll(key{in, ""}, e.valKey(in.X))
			e.addAll(key{in, ""}, e.valKey(in.Y))
		}
	case *ssa.UnOp:
		switch in.Op {
		case token.SUB, token.XOR:
			e.addAll(key{in, ""}, e.valKey(in.X))
		case token.MUL:
			if g, ok := in.X.(*ssa.Global); ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "crypto/rand" && g.Name() == "Reader" {
				e.add(key{g, ""}, e.originLabel(e.sourceAt(in.Pos(), "rand.Reader", kindRandom)))
			}
			if g, ok := in.X.(*ssa.Global); ok {
				if pos, ok := e.counters()[g]; ok {
					e.add(key{g, ""}, e.originLabel(e.sourceAt(pos, "variable "+g.Name(), kindCounter)))
				}
			}
		}
	case *ssa.MapUpdate:
		e.copyInto(e.valKey(in.Map).sub(mapElem(in.Key)), e.valKey(in.Value))
	case *ssa.Send:
		e.copyInto(e.valKey(in.Chan).sub("[]"), e.valKey(in.X))
	case *ssa.FieldAddr:
		e.identity(in, e.addrKey(in))
	case *ssa.Field:
		e.identity(in, e.valKey(in))
	case *ssa.Lookup:
		if isTable(in.X) {
			e.addAll(key{in, ""}, e.valKey(in.Index))
		}
		e.identity(in, e.valKey(in))
	case *ssa.Index:
		if isTable(in.X) {
			e.addAll(key{in, ""}, e.valKey(in.Index))
		}
	case *ssa.DebugRef:
		if l := e.identityLabel(in); l != nil {
			k := e.valKey(in.X)
			if in.IsAddr {
				k = e.addrKey(in.X)
			}
			e.identity(in, k)
		}
	case *ssa.Call:
		e.visitCall(f, in.Common(), in, in.Pos())
	case *ssa.Go:
		e.visitCall(f, in.Common(), nil, in.Pos())
	case *ssa.Defer:
		e.visitCall(f, in.Common(), nil, in.Pos())
	}
}

// identity taints k when instr reads per-attempt identity (a field, map
// key or variable so named, or a configured source field), unless k was
// read back through a barrier.
func (e *engine) identity(instr ssa.Instruction, k key) {
	if l := e.identityLabel(instr); l != nil && !e.isClean(k) {
		e.add(k, l)
	}
}

// identityLabel classifies an instruction once: the origin it draws, or nil.
func (e *engine) identityLabel(instr ssa.Instruction) *label {
	if l, ok := e.idLabels[instr]; ok {
		return l
	}
	var l *label
	switch in := instr.(type) {
	case *ssa.FieldAddr:
		l = e.fieldLabel(in.Pos(), in.X.Type(), in.Field)
	case *ssa.Field:
		l = e.fieldLabel(in.Pos(), in.X.Type(), in.Field)
	case *ssa.Lookup:
		if s, ok := constString(in.Index); ok {
			l = e.identityNameLabel(in.Pos(), fmt.Sprintf("map key %q", s), s, "")
		}
	}
	e.idLabels[instr] = l
	return l
}

func (e *engine) fieldLabel(pos token.Pos, structType types.Type, field int) *label {
	name, tag := fieldOf(structType, field)
	if name == "" || !pos.IsValid() {
		return nil
	}
	// A built-in envelope field is per attempt where the application reads
	// it from a delivery, not inside the client library that fills it in
	// (amqp091 reads DeliveryTag to send an ack).
	pkg := structPkg(structType)
	if kind, ok := e.model.SourceField(pkg, name); ok && (pkg != e.pass.Pkg.Path() || e.model.ConfiguredSourceField(pkg, name)) {
		return e.originLabel(e.sourceAt(pos, "field "+name, sourceKind(kind)))
	}
	if k := identityKind(name); k == kindRequest || k == "" && identityKind(tag) == kindRequest {
		// A field named RequestID is what the message or body that filled
		// it says: a webhook's notification id, a client's own request id,
		// the same when either is sent again. A request's identity is drawn
		// per request by a middleware or a header (GetReqID, X-Request-Id),
		// which are read where they are called.
		return nil
	}
	return e.identityNameLabel(pos, "field "+name, messageIDName(structType, name), tag)
}

func (e *engine) identityNameLabel(pos token.Pos, what, name, tag string) *label {
	kind := identityKind(name)
	if kind == "" && tag != "" {
		kind = identityKind(tag)
	}
	if kind == "" || !pos.IsValid() {
		return nil
	}
	return e.originLabel(e.sourceAt(pos, what, kind))
}

// fieldOf returns the name and JSON tag of field i of the struct t points
// to or is.
func fieldOf(t types.Type, i int) (string, string) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return "", ""
	}
	return st.Field(i).Name(), keyname.JSONTagName(st.Tag(i))
}

func callArgs(c *ssa.CallCommon) []ssa.Value {
	if c.IsInvoke() {
		return append([]ssa.Value{c.Value}, c.Args...)
	}
	return c.Args
}

// resultKey is the location of result i of a call with n results.
func resultKey(call ssa.Value, i, n int) key {
	if n > 1 {
		return key{call, "%" + strconv.Itoa(i)}
	}
	return key{call, ""}
}

// callMode says how a call moves per-attempt values.
type callMode int

const (
	callNone    callMode = iota // nothing moves (unknown implementation)
	callBuiltin                 // append, copy…
	callBarrier                 // results and out-parameters are stable
	callSource                  // draws a per-attempt value
	callLocal                   // summarized in this package
	callFact                    // summarized by an imported fact
	callIface                   // through an interface: the implementations in view
	callDefault                 // standard library: the default model
)

// callInfo is what a call site means, worked out once.
type callInfo struct {
	mode     callMode
	cal      callee
	args     []ssa.Value
	source   *label // callSource: the origin
	out      int    // callSource: -1 for results, else the filled argument
	accessor *label // results are per-attempt identity (GetReqID, TraceID)
	clean    bool   // results are the incoming Idempotency-Key header
	local    *ssa.Function
	fact     *Summary
	impls    []*ssa.Function // callIface: implementations in this package
	facts    []implFact      // callIface: implementations in dependencies
}

func (e *engine) callInfo(c *ssa.CallCommon, val ssa.Value, pos token.Pos) *callInfo {
	if ci, ok := e.calls[c]; ok {
		return ci
	}
	ci := &callInfo{cal: describeCallee(c), args: callArgs(c)}
	e.calls[c] = ci
	cal := ci.cal
	switch {
	case cal.builtin != "":
		ci.mode = callBuiltin
		return ci
	case cal.fn != nil && e.model.Barrier(cal.pkg, cal.recv, cal.name):
		ci.mode = callBarrier
		return ci
	}
	if val != nil && llmHTTPCall(c, cal) {
		ci.mode, ci.out = callSource, -1
		ci.source = e.originLabel(e.sourceAt(pos, "response of "+cal.display(), kindModel))
		return ci
	}
	if kind, out, ok := e.sourceCall(cal); ok {
		ci.mode, ci.out = callSource, out
		ci.source = e.originLabel(e.sourceAt(pos, cal.display(), kind))
		return ci
	}
	if val != nil && !setterKeyName(cal.name) && cal.sig != nil && hasDataResult(cal.sig) {
		// Accessors of per-attempt identity: middleware.GetReqID(ctx),
		// span.SpanContext().TraceID(), retry.AttemptFromContext(ctx).
		if k := identityKind(trimAccessor(cal.name)); k != "" {
			ci.accessor = e.originLabel(e.sourceAt(pos, cal.display(), k))
		}
	}
	if val != nil && cal.recv != "" && isHeaderGetter(cal.name) && len(c.Args) >= 1 {
		if s, ok := e.stringValue(c.Args[len(c.Args)-1]); ok {
			if e.model.IsHeader(s) {
				// The incoming request's own Idempotency-Key: stable across
				// the client's retries.
				ci.clean = true
				ci.mode = callBarrier
				return ci
			}
			if k := identityKind(s); k != "" {
				ci.accessor = e.originLabel(e.sourceAt(pos, fmt.Sprintf("%s(%q)", cal.name, s), k))
			}
		}
	}
	if m, recv, ok := e.boundMethod(c); ok {
		// A method value (g := t.M; g(…)): the method, with the bound
		// receiver as its first argument.
		ci.mode, ci.local, ci.args = callLocal, m, append([]ssa.Value{recv}, c.Args...)
		return ci
	}
	switch {
	case cal.ssa != nil && e.local[originOf(cal.ssa)]:
		ci.mode, ci.local = callLocal, originOf(cal.ssa)
	case cal.fn != nil && !cal.iface && cal.fn.Pkg() != nil && e.pass.ImportPackageFact(cal.fn.Pkg(), new(analyzed)):
		var s Summary
		if e.pass.ImportObjectFact(cal.fn, &s) {
			ci.mode, ci.fact = callFact, &s
		}
	case cal.iface && cal.fn != nil && cal.fn.Pkg() != nil && (!isStdPath(cal.fn.Pkg().Path()) || e.isAnalyzed(cal.fn.Pkg())):
		// An interface of a non-standard package: judged by the
		// implementations in view (this package and its dependencies);
		// with none, nothing moves, since guessing would make findings up.
		ci.impls, ci.facts = e.implementations(c)
		if len(ci.impls)+len(ci.facts) > 0 {
			ci.mode = callIface
		}
	case cal.fn == nil:
		// A call of a function value: the functions of this package passed
		// for it (a higher-order helper's callback).
		if targets := e.funcValues()[c.Value]; len(targets) > 0 {
			ci.mode, ci.impls = callIface, targets
		}
	default:
		ci.mode = callDefault
	}
	return ci
}

func originOf(f *ssa.Function) *ssa.Function {
	if o := f.Origin(); o != nil {
		return o
	}
	return f
}

func (e *engine) visitCall(f *ssa.Function, c *ssa.CallCommon, val ssa.Value, pos token.Pos) {
	ci := e.callInfo(c, val, pos)
	args := ci.args
	if call, isCall := val.(*ssa.Call); isCall && (ci.mode == callSource && ci.out < 0 || ci.mode != callBuiltin && len(args) == 0) {
		if e.requestFallback(call) {
			return // the client sent no key of its own: see fallback.go
		}
		defer e.noteParamFallback(call)
	}
	if ci.accessor != nil && val != nil {
		e.addResults(c, val, ci.accessor)
	}
	switch ci.mode {
	case callBuiltin:
		e.builtinCall(ci.cal.builtin, args, val)
	case callBarrier:
		for _, a := range args {
			if isPointer(a.Type()) {
				e.clean[e.addrKey(a)] = true
			}
		}
		if val != nil {
			e.clean[key{val, ""}] = true
		}
	case callSource:
		if ci.out < 0 && val != nil {
			e.addResults(c, val, ci.source)
		} else if ci.out >= 0 && ci.out < len(args) {
			// crypto/rand.Read(buf): the buffer is the value.
			e.add(e.valKey(args[ci.out]), ci.source)
		}
	case callLocal:
		e.applyLocal(ci.local, c, args, val, pos)
	case callFact:
		e.applyFact(ci.cal, ci.fact, c, args, val, pos)
	case callIface:
		for _, impl := range ci.impls {
			e.applyLocal(impl, c, args, val, pos)
		}
		for _, f := range ci.facts {
			e.applyFact(f.cal, f.s, c, args, val, pos)
		}
	case callDefault:
		e.applyDefault(ci.cal, c, args, val)
	}
}

// addResults puts l in every data-carrying result of a call.
func (e *engine) addResults(c *ssa.CallCommon, val ssa.Value, l *label) {
	sig := c.Signature()
	n := sig.Results().Len()
	for i := 0; i < n; i++ {
		if carriesData(sig.Results().At(i).Type()) {
			e.add(resultKey(val, i, n), l)
		}
	}
}

// isAnalyzed reports whether pkg is this package or a dependency this
// analyzer ran on (the standard library is not analyzed).
func (e *engine) isAnalyzed(pkg *types.Package) bool {
	return pkg == e.pass.Pkg || e.pass.ImportPackageFact(pkg, new(analyzed))
}

// isStdPath reports import paths of the standard library (no dot in the
// first element).
func isStdPath(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

func (e *engine) builtinCall(name string, args []ssa.Value, val ssa.Value) {
	switch name {
	case "append":
		if val == nil || len(args) == 0 {
			return
		}
		e.copyInto(key{val, ""}, e.valKey(args[0]))
		for _, a := range args[1:] {
			// The appended values come as a slice (the variadic one SSA
			// makes, or s...): its elements become the result's, each
			// field with its own taint.
			e.copyInto(key{val, ""}, e.valKey(a))
		}
	case "copy":
		if len(args) == 2 {
			e.addAll(e.valKey(args[0]).sub("[]"), e.valKey(args[1]))
		}
	case "min", "max", "string":
		if val != nil {
			for _, a := range args {
				e.addAll(key{val, ""}, e.valKey(a))
			}
		}
	}
}

// transfer moves what the callee's location src holds into the caller's
// location dst, substituting the callee's parameters with the arguments.
func (e *engine) transfer(dst, src key, callee *ssa.Function, args []ssa.Value, pos token.Pos, skipParam int, msg string) {
	for _, en := range e.entriesUnder(src) {
		l := en.l
		switch {
		case l.origin != nil:
			e.add(dst.sub(en.path), e.originLabel(e.hop(l.origin, pos, msg, callee)))
		case l.fn == callee:
			if l.param == skipParam || l.param >= len(args) {
				continue
			}
			e.copyInto(dst.sub(en.path), e.valKey(args[l.param]).sub(l.path))
		default:
			e.add(dst.sub(en.path), l)
		}
	}
}

func (e *engine) applyLocal(callee *ssa.Function, c *ssa.CallCommon, args []ssa.Value, val ssa.Value, pos token.Pos) {
	msg := "returned by " + funcDisplay(callee)
	if val != nil {
		n := c.Signature().Results().Len()
		for _, ret := range e.returns[callee] {
			for i, r := range ret.Results {
				if i < n && carriesData(r.Type()) {
					e.transfer(resultKey(val, i, n), e.valKey(r), callee, args, pos, -1, msg)
				}
			}
		}
	}
	for j, p := range callee.Params {
		if j < len(args) && carriesData(p.Type()) && mayHoldPointer(p.Type()) {
			e.transfer(e.valKey(args[j]), key{p, ""}, callee, args, pos, j, "written by "+funcDisplay(callee))
		}
	}
	for _, s := range e.paramSinks[callee] {
		if s.param < len(args) {
			e.sinkThroughCall(s, e.valKey(args[s.param]).sub(s.path), pos, funcDisplay(callee))
		}
	}
}

// sinkThroughCall handles an argument that reaches a key sink inside the
// callee.
func (e *engine) sinkThroughCall(s paramSink, k key, pos token.Pos, callee string) {
	desc := s.desc
	if !strings.Contains(desc, " in ") {
		desc = fmt.Sprintf("%s in %s (%s)", s.desc, callee, s.posn)
	}
	for _, l := range e.labels(k) {
		if l.origin != nil {
			e.record(e.cur, e.curInstr, true, pos, l.origin, desc, s.weak, nil, []step{{pos: pos, msg: "passed to " + callee + ", where it reaches " + s.desc + " at " + s.posn}})
		} else {
			e.addParamSink(l.fn, paramSink{param: l.param, path: l.path, desc: desc, posn: s.posn, pos: s.pos, weak: s.weak})
		}
	}
}

func mayHoldPointer(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Interface:
		return true
	case *types.Basic:
		return false
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mayHoldPointer(u.Field(i).Type()) {
				return true
			}
		}
		return false
	case *types.Array:
		return mayHoldPointer(u.Elem())
	case *types.TypeParam:
		return true
	}
	return false
}

func funcDisplay(f *ssa.Function) string {
	if f.Parent() != nil {
		return "func literal in " + funcDisplay(f.Parent())
	}
	name := f.Name()
	if recv := f.Signature.Recv(); recv != nil {
		name = typeName(recv.Type()) + "." + name
	}
	if f.Pkg != nil {
		return f.Pkg.Pkg.Name() + "." + name
	}
	return name
}

func (e *engine) applyFact(cal callee, s *Summary, c *ssa.CallCommon, args []ssa.Value, val ssa.Value, pos token.Pos) {
	msg := "returned by " + cal.display()
	n := c.Signature().Results().Len()
	for _, fl := range s.Results {
		if val == nil || fl.To >= n {
			continue
		}
		dst := resultKey(val, fl.To, n).sub(fl.ToPath)
		if fl.From < 0 {
			e.add(dst, e.originLabel(e.hop(e.importedOrigin(fl), pos, msg, nil)))
		} else if fl.From < len(args) {
			e.copyInto(dst, e.valKey(args[fl.From]).sub(fl.FromPath))
		}
	}
	for _, fl := range s.Outs {
		if fl.To >= len(args) {
			continue
		}
		dst := e.valKey(args[fl.To]).sub(fl.ToPath)
		if fl.From < 0 {
			e.add(dst, e.originLabel(e.hop(e.importedOrigin(fl), pos, "written by "+cal.display(), nil)))
		} else if fl.From < len(args) {
			e.copyInto(dst, e.valKey(args[fl.From]).sub(fl.FromPath))
		}
	}
	for _, sf := range s.Sinks {
		if sf.Param < len(args) {
			e.sinkThroughCall(paramSink{param: sf.Param, path: sf.Path, desc: sf.Sink, posn: sf.Posn, weak: sf.Weak},
				e.valKey(args[sf.Param]).sub(sf.Path), pos, cal.display())
		}
	}
}

// applyDefault models a function that is not summarized (the standard
// library): arguments flow to results, writers take their arguments,
// readers and decoders fill their destination.
func (e *engine) applyDefault(cal callee, c *ssa.CallCommon, args []ssa.Value, val ssa.Value) {
	into := func(dst int, srcs ...int) {
		if dst >= len(args) {
			return
		}
		for _, s := range srcs {
			if s < len(args) && s != dst {
				e.addAll(e.valKey(args[dst]), e.valKey(args[s]))
			}
		}
	}
	rest := func(from int) []int {
		var out []int
		for i := from; i < len(args); i++ {
			out = append(out, i)
		}
		return out
	}
	p, n := cal.pkg, cal.name
	switch {
	case (strings.HasPrefix(p, "encoding/") || p == "github.com/goccy/go-json" || p == "github.com/json-iterator/go") && cal.recv == "" && strings.HasPrefix(n, "Unmarshal"):
		into(1, 0)
	case cal.recv != "" && (n == "Decode" || n == "Unmarshal") && len(args) >= 2:
		into(1, 0)
	case p == "io" && (n == "ReadFull" || n == "ReadAtLeast"):
		into(1, 0)
	case cal.recv != "" && (n == "Read" || n == "ReadAt") && len(args) >= 2:
		into(1, 0)
	case p == "fmt" && strings.HasPrefix(n, "Fprint"):
		into(0, rest(1)...)
	case p == "fmt" && strings.HasPrefix(n, "Sscan"):
		for i := 1; i < len(args); i++ {
			into(i, 0)
		}
	case p == "io" && (n == "WriteString" || n == "Copy" || n == "CopyN" || n == "CopyBuffer"):
		into(0, 1)
	case p == "encoding/binary" && n == "Write":
		into(0, 2)
	case p == "encoding/binary" && cal.recv != "" && strings.HasPrefix(n, "Put") && len(args) >= 3:
		into(1, 2) // binary.BigEndian.PutUint32(b, v)
	case cal.recv != "" && writerMethod(n):
		into(0, rest(1)...)
	}
	// Parameters named dst receive the other arguments (hex.Encode,
	// base64.Encoding.Encode, copy-like helpers).
	if sig := cal.sig; sig != nil {
		off := len(args) - sig.Params().Len()
		for i := 0; i < sig.Params().Len(); i++ {
			if nm := sig.Params().At(i).Name(); nm == "dst" || nm == "dest" {
				for j := range args {
					if j != i+off {
						into(i+off, j)
					}
				}
			}
		}
	}
	if val == nil {
		return
	}
	sig := c.Signature()
	nres := sig.Results().Len()
	for i := 0; i < nres; i++ {
		if !carriesData(sig.Results().At(i).Type()) {
			continue
		}
		for _, a := range args {
			if carriesData(a.Type()) {
				e.addAll(resultKey(val, i, nres), e.valKey(a))
			}
		}
	}
}

// boundMethod resolves a call of a method value of this package (the
// bound-method wrapper a MakeClosure builds) to the method and receiver.
func (e *engine) boundMethod(c *ssa.CallCommon) (*ssa.Function, ssa.Value, bool) {
	mc, ok := c.Value.(*ssa.MakeClosure)
	if !ok || len(mc.Bindings) != 1 {
		return nil, nil, false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || fn.Synthetic == "" {
		return nil, nil, false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return nil, nil, false
	}
	m := e.pkg.Prog.FuncValue(obj)
	if m == nil || !e.local[m] {
		return nil, nil, false
	}
	return m, mc.Bindings[0], true
}

// funcValues maps each function-typed parameter of this package's
// functions to the functions of this package passed for it at direct
// calls (apply(F1, req, k)), and each method value to its method, so that
// calls of function values are followed.
func (e *engine) funcValues() map[ssa.Value][]*ssa.Function {
	if e.fnValues != nil {
		return e.fnValues
	}
	e.fnValues = map[ssa.Value][]*ssa.Function{}
	seen := map[[2]any]bool{}
	for _, f := range e.funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				callee := call.Common().StaticCallee()
				if callee == nil || !e.local[originOf(callee)] {
					continue
				}
				callee = originOf(callee)
				for i, a := range call.Common().Args {
					var target *ssa.Function
					switch a := a.(type) {
					case *ssa.Function:
						target = a
					case *ssa.MakeClosure:
						target, _ = a.Fn.(*ssa.Function)
					}
					if target == nil || !e.local[target] || i >= len(callee.Params) {
						continue
					}
					p := callee.Params[i]
					if k := [2]any{p, target}; !seen[k] {
						seen[k] = true
						e.fnValues[p] = append(e.fnValues[p], target)
					}
				}
			}
		}
	}
	return e.fnValues
}
