package attemptkey

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

func firstValid(ps ...token.Pos) token.Pos {
	for _, p := range ps {
		if p.IsValid() {
			return p
		}
	}
	return token.NoPos
}

// structPkg returns the package path declaring the struct type t is or
// points to.
func structPkg(t types.Type) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path()
	}
	return ""
}

// holdsData reports whether a field (the type of its address) can hold a
// key's value: not an interface, a function or a channel, which hold what
// makes or carries keys (the AWS SDK's IdempotencyTokenProvider).
func holdsData(addr types.Type) bool {
	p, ok := addr.Underlying().(*types.Pointer)
	if !ok {
		return true
	}
	switch p.Elem().Underlying().(type) {
	case *types.Interface, *types.Signature, *types.Chan:
		return false
	}
	return true
}

// collectSinks records the key sinks an instruction contains.
func (e *engine) collectSinks(f *ssa.Function, instr ssa.Instruction) {
	keys := e.keys
	switch in := instr.(type) {
	case *ssa.Store:
		fa, ok := in.Addr.(*ssa.FieldAddr)
		if !ok {
			return
		}
		name, tag := fieldOf(fa.X.Type(), fa.Field)
		pkg := structPkg(fa.X.Type())
		strong := e.model.SinkField(pkg, name)
		if !strong && !holdsData(fa.Type()) {
			return // IdempotencyTokenProvider: what draws keys, not a key
		}
		if strong || keys.Match(name) || keys.Match(tag) || keymodel.RecordKeyField(fa.X.Type(), name) {
			e.sites = append(e.sites, sinkSite{fn: f, instr: in, val: in.Val, pos: firstValid(in.Pos(), fa.Pos(), in.Val.Pos()),
				desc: "field " + name, weak: !strong, leaves: e.sentByCall(fa)})
		}
	case *ssa.MapUpdate:
		s, ok := e.stringValue(in.Key)
		if !ok || !nameLike(s) || e.onlyObserved(in.Map) || responseHeader(in.Map) {
			return
		}
		header := e.model.IsHeader(s)
		if header || keys.Match(s) {
			desc := "map key " + quote(s)
			if typeName(in.Map.Type()) == "Header" {
				desc = "header " + s
			}
			e.sites = append(e.sites, sinkSite{fn: f, instr: in, val: in.Value, pos: firstValid(in.Pos(), in.Value.Pos()), desc: desc, weak: !header})
		}
	case *ssa.DebugRef:
		v, ok := in.Object().(*types.Var)
		if !ok || v.IsField() || !keys.Match(v.Name()) {
			return
		}
		if _, isParam := in.X.(*ssa.Parameter); isParam {
			return
		}
		if v.Parent() == v.Pkg().Scope() {
			return // package-level variable
		}
		e.sites = append(e.sites, sinkSite{fn: f, instr: in, val: in.X, isAddr: in.IsAddr, pos: in.Expr.Pos(), desc: "variable " + v.Name(), weak: true, obj: v})
	case ssa.CallInstruction:
		e.collectCallSinks(f, in)
	}
}

func (e *engine) collectCallSinks(f *ssa.Function, call ssa.CallInstruction) {
	c := call.Common()
	cal := describeCallee(c)
	if cal.builtin != "" {
		return
	}
	if cal.fn != nil && e.model.Observes(cal.pkg, cal.recv, cal.name) {
		return // a log field, metric label or error value goes nowhere
	}
	keys := e.keys
	pos := call.Pos()
	args := c.Args
	if cal.pkg == "net/http" && cal.recv == "Header" && len(args) > 0 && responseHeader(args[0]) {
		return // w.Header().Set("Idempotency-Key", k): the answer to this request's caller
	}
	sinkCall := cal.fn != nil && e.model.SinkCall(cal.pkg, cal.recv, cal.name)
	if setterKeyName(cal.name) || sinkCall {
		strong := sinkCall
		for _, a := range args {
			if !c.IsInvoke() && cal.recv != "" && a == args[0] {
				continue // the receiver
			}
			if carriesData(a.Type()) {
				e.sites = append(e.sites, sinkSite{fn: f, instr: call, val: a, pos: pos, desc: "argument of " + cal.display(), weak: !strong, leaves: true})
			}
		}
		return
	}
	// A constant header or key name followed by its value:
	// h.Set("Idempotency-Key", k), option.WithHeader("Idempotency-Key", k).
	for i, a := range args {
		s, ok := e.stringValue(a)
		if !ok || i+1 >= len(args) || !nameLike(s) {
			continue
		}
		header := e.model.IsHeader(s)
		if !header && !keys.Match(s) {
			continue
		}
		if isHeaderGetter(cal.name) && cal.name != "Set" {
			continue
		}
		desc := "header " + s
		if !header {
			desc = "key " + quote(s)
		}
		e.sites = append(e.sites, sinkSite{fn: f, instr: call, val: args[i+1], pos: pos, desc: desc, weak: !header, leaves: true})
	}
}

func quote(s string) string { return "\"" + s + "\"" }

// nameLike reports constants that look like a header, field or key name
// rather than text (a SQL statement mentioning idem_key is not a key name).
func nameLike(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// isLookupByKey reports a function of this package that the model says
// reads a record back by its key (GetByIdempotencyKey): its results are
// the record, not a key.
func (e *engine) isLookupByKey(f *ssa.Function) bool {
	recv := ""
	if r := f.Signature.Recv(); r != nil {
		recv = typeName(r.Type())
	}
	return e.model.Barrier(e.pass.Pkg.Path(), recv, f.Name())
}

// sentByCall reports a field of a local struct that is handed to a call
// other than a database write: the request that carries the key out,
// rather than the receipt that records it.
func (e *engine) sentByCall(fa *ssa.FieldAddr) bool {
	alloc, ok := fa.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	sends := func(v ssa.Value) bool {
		for _, r := range *v.Referrers() {
			if c, ok := r.(ssa.CallInstruction); ok && !e.isStore(describeCallee(c.Common())) {
				return true
			}
		}
		return false
	}
	if sends(alloc) {
		return true
	}
	for _, r := range *alloc.Referrers() {
		if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL && sends(load) {
			return true
		}
	}
	return false
}

// onlyObserved reports a map of a logging or tracing package's type
// (logrus.Fields), or one handed to nothing but such calls or to the
// answer to the request being served: its entries are log fields or the
// response's, not keys.
func (e *engine) onlyObserved(m ssa.Value) bool {
	if e.model.ObservesType(structPkg(m.Type())) {
		return true
	}
	observed := false
	for _, r := range *m.Referrers() {
		switch r := r.(type) {
		case *ssa.MapUpdate, *ssa.DebugRef:
		case *ssa.MakeInterface:
			if !e.onlyObserved(r) {
				return false
			}
			observed = true
		case ssa.CallInstruction:
			if answersRequest(r.Common()) {
				observed = true
				continue
			}
			cal := describeCallee(r.Common())
			if cal.fn == nil || !e.model.Observes(cal.pkg, cal.recv, cal.name) {
				return false
			}
			observed = true
		default:
			return false
		}
	}
	return observed
}

// responseHeader reports the headers of the response being written
// (w.Header(), c.Response().Header()): a key set there is the receipt
// handed back to this request's caller, not a key sent on to anyone. A
// response writer is known by what it does, WriteHeader, not by a name.
func responseHeader(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	c := call.Common()
	var recv types.Type
	switch {
	case c.IsInvoke() && c.Method.Name() == "Header":
		recv = c.Value.Type()
	case c.StaticCallee() != nil && c.StaticCallee().Name() == "Header" && c.StaticCallee().Signature.Recv() != nil:
		recv = c.StaticCallee().Signature.Recv().Type()
	default:
		return false
	}
	return isResponseWriter(recv)
}

// answersRequest reports a call that writes the answer to the request
// being served: its receiver or an argument is the response writer, an
// encoder or buffer built over it (json.NewEncoder(w).Encode(resp)), or
// a request context holding it (c.JSON(200, gin.H{…})). What it is
// handed goes back to this request's caller, not to anyone whose effect
// a key guards; a helper that takes the writer (writeJSON(w, 200, m))
// counts as such a call.
func answersRequest(c *ssa.CallCommon) bool {
	if c.IsInvoke() && responseSide(c.Value, 0) {
		return true
	}
	for _, a := range c.Args {
		if responseSide(a, 0) {
			return true
		}
	}
	return false
}

// responseSide reports a value that is the response being written, or
// made over it by a call one step back (json.NewEncoder(w)).
func responseSide(v ssa.Value, depth int) bool {
	if x := converted(v); x != nil {
		v = x
	}
	if isResponseWriter(v.Type()) || holdsResponseWriter(v.Type()) {
		return true
	}
	call, ok := v.(*ssa.Call)
	if !ok || depth > 0 {
		return false
	}
	for _, a := range call.Call.Args {
		if responseSide(a, depth+1) {
			return true
		}
	}
	return false
}

// isResponseWriter: a type that can write a status line, WriteHeader
// (net/http's ResponseWriter and every wrapper of it).
func isResponseWriter(t types.Type) bool {
	return hasMethod(t, "WriteHeader")
}

// holdsResponseWriter: a request context (gin's Context, echo's) that
// holds the response writer in a field or hands it out from a method
// without parameters.
func holdsResponseWriter(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Exported() && isResponseWriter(st.Field(i).Type()) {
				return true
			}
		}
	}
	ms := methodSet(t)
	for i := 0; i < ms.Len(); i++ {
		sig, ok := ms.At(i).Type().(*types.Signature)
		if ok && ms.At(i).Obj().Exported() && sig.Params().Len() == 0 && sig.Results().Len() == 1 && isResponseWriter(sig.Results().At(0).Type()) {
			return true
		}
	}
	return false
}

func hasMethod(t types.Type, name string) bool {
	ms := methodSet(t)
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Name() == name {
			return true
		}
	}
	return false
}

// methodSet is t's method set, or *t's for a named non-interface type
// (a method with a pointer receiver is callable on an addressable t).
func methodSet(t types.Type) *types.MethodSet {
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr {
		if _, isIface := t.Underlying().(*types.Interface); !isIface {
			return types.NewMethodSet(types.NewPointer(t))
		}
	}
	return types.NewMethodSet(t)
}
