package attemptkey

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemcheck/idemcheck/analyzer/internal/directive"
	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

// Analyzer reports idempotency keys built from per-attempt values (IDEM001).
var Analyzer = &analysis.Analyzer{
	Name:      "attemptkey",
	Doc:       "report idempotency keys built from values drawn inside the attempt (IDEM001)\n\nSee `idemcheck lint --explain IDEM001`.",
	URL:       "https://github.com/idemcheck/idemcheck#idem001",
	Run:       run,
	FactTypes: []analysis.Fact{new(Summary), new(analyzed)},
}

func init() {
	Analyzer.Flags.Var(&keyPatternFlag{}, "keypattern",
		"regular expression over normalized names (lower case, letters and digits only) of idempotency keys; replaces the default")
}

// keyPatternFlag sets the key-name matcher of the package configuration.
type keyPatternFlag struct{}

func (keyPatternFlag) String() string {
	if m := currentConfig().Keys; m != nil {
		return m.String()
	}
	return ""
}

func (keyPatternFlag) Set(s string) error {
	m, err := keyname.Compile(s)
	if err != nil {
		return err
	}
	c := currentConfig()
	c.Keys = m
	Configure(c)
	return nil
}

var statsEnabled = os.Getenv("IDEMCHECK_ATTEMPTKEY_STATS") != ""

const remedy = "derive it from the frozen intent, or persist it before acting and read it back"

func run(pass *analysis.Pass) (any, error) {
	rep := directive.NewReporter(pass, Rule.ID)
	rep.ReportMalformed(true)
	if isStandard(pass) {
		return nil, nil
	}
	pass.ExportPackageFact(&analyzed{})
	e := newEngine(pass, currentConfig())
	e.build()
	e.solve()
	e.exportFacts()
	for _, d := range e.diagnostics() {
		rep.Report(d)
	}
	return nil, nil
}

// isStandard reports packages of the standard library, which are not
// analyzed: the default model covers them.
func isStandard(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return true
	}
	root := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return build.Default.GOROOT != "" && strings.HasPrefix(name, root)
}

// A key names an abstract memory location or value: a root SSA value and
// an access path of elements ".N" (field N), "[]" (any element) and "%N"
// (result N of a call).
type key struct {
	root ssa.Value
	path string
}

// sub is the location of element elem of k. Locations deeper than
// maxPathElems are dropped (the zero key, which holds nothing): recursive
// structures then terminate, and a deep location is never merged with its
// siblings, which would make findings up.
func (k key) sub(elem string) key {
	if k.root == nil || tooDeep(k.path+elem) {
		return key{}
	}
	return key{k.root, k.path + elem}
}

const maxPathElems = 5

func tooDeep(p string) bool {
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] == '.' || p[i] == '[' || p[i] == '%' {
			n++
		}
	}
	return n > maxPathElems
}

// isPrefixPath reports whether prefix is p or an ancestor of p.
func isPrefixPath(p, prefix string) bool {
	if !strings.HasPrefix(p, prefix) {
		return false
	}
	if len(p) == len(prefix) {
		return true
	}
	c := p[len(prefix)]
	return c == '.' || c == '[' || c == '%'
}

// A label is what a location holds: a per-attempt origin, or the value of
// a parameter (at a path) of the function being summarized.
type label struct {
	origin *origin
	fn     *ssa.Function
	param  int
	path   string
}

// An origin is a per-attempt source and the hops it took to get here.
type origin struct {
	source string    // "uuid.NewString"
	kind   string    // kindRandom…
	posn   string    // "dir/file.go:line"
	pos    token.Pos // valid when the source is in this package
	steps  []step
	root   *origin // the origin before any hop
	via    []string
}

type step struct {
	pos token.Pos
	msg string
}

type entry struct {
	path string
	l    *label
}

type sinkSite struct {
	fn     *ssa.Function
	val    ssa.Value
	isAddr bool
	pos    token.Pos
	desc   string
	weak   bool         // a name-based sink; silent when the value is persisted
	obj    types.Object // variable sinks report once per variable
}

type paramSink struct {
	param int
	path  string
	desc  string
	posn  string
	pos   token.Pos
	weak  bool
}

type finding struct {
	fn   *ssa.Function
	pos  token.Pos
	o    *origin
	desc string
	weak bool
	obj  types.Object
	hops []step
}

type engine struct {
	pass *analysis.Pass
	cfg  Config

	pkg     *ssa.Package
	funcs   []*ssa.Function
	local   map[*ssa.Function]bool
	returns map[*ssa.Function][]*ssa.Return
	binding map[*ssa.FreeVar]ssa.Value

	cur      *ssa.Function // the function being visited
	calls    map[*ssa.CallCommon]*callInfo
	idLabels map[ssa.Instruction]*label
	addrKeys map[ssa.Value]key
	valKeys  map[ssa.Value]key
	mem      map[ssa.Value][]entry
	clean    map[key]bool
	changed  bool

	params     map[paramKey]*label
	sources    map[token.Pos]*origin
	vias       map[viaKey]*origin
	imported   map[string]*origin
	sites      []sinkSite
	paramSinks map[*ssa.Function][]paramSink
	persisted  map[*origin]bool

	findings   []*finding
	findingAt  map[token.Pos]*finding
	reportedOb map[types.Object]bool
}

type paramKey struct {
	fn    *ssa.Function
	param int
	path  string
}

type viaKey struct {
	o   *origin
	pos token.Pos
	msg string
}

func newEngine(pass *analysis.Pass, cfg Config) *engine {
	return &engine{
		pass:       pass,
		cfg:        cfg,
		local:      map[*ssa.Function]bool{},
		calls:      map[*ssa.CallCommon]*callInfo{},
		idLabels:   map[ssa.Instruction]*label{},
		addrKeys:   map[ssa.Value]key{},
		valKeys:    map[ssa.Value]key{},
		returns:    map[*ssa.Function][]*ssa.Return{},
		binding:    map[*ssa.FreeVar]ssa.Value{},
		mem:        map[ssa.Value][]entry{},
		clean:      map[key]bool{},
		params:     map[paramKey]*label{},
		sources:    map[token.Pos]*origin{},
		vias:       map[viaKey]*origin{},
		imported:   map[string]*origin{},
		paramSinks: map[*ssa.Function][]paramSink{},
		persisted:  map[*origin]bool{},
		findingAt:  map[token.Pos]*finding{},
		reportedOb: map[types.Object]bool{},
	}
}

// build constructs SSA for the package, as buildssa does, with debug
// references so variable names are known.
func (e *engine) build() {
	pass := e.pass
	prog := ssa.NewProgram(pass.Fset, ssa.BuilderMode(0))
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	e.pkg = prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	e.pkg.SetDebugMode(true)
	e.pkg.Build()

	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		if f == nil || e.local[f] {
			return
		}
		e.local[f] = true
		e.funcs = append(e.funcs, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok {
				if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					add(prog.FuncValue(obj))
				}
			}
		}
	}
	add(e.pkg.Func("init"))

	for _, f := range e.funcs {
		for i, p := range f.Params {
			if carriesData(p.Type()) {
				e.add(key{p, ""}, e.paramLabel(f, i, ""))
			}
			if e.cfg.keys().Match(p.Name()) && carriesData(p.Type()) && !isSetterName(f.Name()) {
				e.addParamSink(f, paramSink{param: i, desc: "parameter " + p.Name(), posn: e.posn(p.Pos()), pos: p.Pos(), weak: true})
			}
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.MakeClosure:
					if fn, ok := in.Fn.(*ssa.Function); ok {
						for i, v := range in.Bindings {
							if i < len(fn.FreeVars) {
								e.binding[fn.FreeVars[i]] = v
							}
						}
					}
				case *ssa.Return:
					e.returns[f] = append(e.returns[f], in)
				}
				e.collectSinks(f, instr)
			}
		}
	}
	sort.SliceStable(e.sites, func(i, j int) bool { return e.sites[i].pos < e.sites[j].pos })
	e.funcs = e.calleesFirst()
}

// calleesFirst orders the functions so that callees within the package
// come before their callers: summaries are ready when a caller is visited
// and the fixed point needs fewer rounds. The order only depends on the
// source order, so it is the same on every run.
func (e *engine) calleesFirst() []*ssa.Function {
	seen := map[*ssa.Function]bool{}
	order := make([]*ssa.Function, 0, len(e.funcs))
	var visit func(f *ssa.Function)
	visit = func(f *ssa.Function) {
		if seen[f] {
			return
		}
		seen[f] = true
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if callee := call.Common().StaticCallee(); callee != nil && e.local[originOf(callee)] {
						visit(originOf(callee))
					}
				}
			}
		}
		order = append(order, f)
	}
	for _, f := range e.funcs {
		visit(f)
	}
	return order
}

func isSetterName(n string) bool { return setterKeyName(n) }

func (e *engine) paramLabel(fn *ssa.Function, i int, path string) *label {
	k := paramKey{fn, i, path}
	if l, ok := e.params[k]; ok {
		return l
	}
	l := &label{fn: fn, param: i, path: path}
	e.params[k] = l
	return l
}

func (e *engine) extend(l *label, rest string) *label {
	if l.origin != nil || rest == "" {
		return l
	}
	if tooDeep(l.path + rest) {
		return nil
	}
	return e.paramLabel(l.fn, l.param, l.path+rest)
}

// posn renders a position as "dir/file.go:line": short, and the same
// wherever the tool runs.
func (e *engine) posn(pos token.Pos) string {
	p := e.pass.Fset.Position(pos)
	if !p.IsValid() {
		return "?"
	}
	dir := filepath.Base(filepath.Dir(p.Filename))
	return fmt.Sprintf("%s/%s:%d", dir, filepath.Base(p.Filename), p.Line)
}

func (e *engine) sourceAt(pos token.Pos, source, kind string) *origin {
	if o, ok := e.sources[pos]; ok {
		return o
	}
	o := &origin{source: source, kind: kind, posn: e.posn(pos), pos: pos}
	o.root = o
	e.sources[pos] = o
	return o
}

func (e *engine) importedOrigin(f Flow) *origin {
	k := f.Source + "\x00" + f.Kind + "\x00" + f.Posn + "\x00" + strings.Join(f.Via, "\x00")
	if o, ok := e.imported[k]; ok {
		return o
	}
	o := &origin{source: f.Source, kind: f.Kind, posn: f.Posn, via: f.Via}
	o.root = o
	e.imported[k] = o
	return o
}

// hop records that o crossed a call at pos.
func (e *engine) hop(o *origin, pos token.Pos, msg string) *origin {
	if !pos.IsValid() || len(o.steps) >= 8 {
		return o
	}
	for _, s := range o.steps {
		if s.pos == pos {
			return o
		}
	}
	// Interned by the first origin and this call site only, so call
	// cycles cannot breed new origins forever.
	k := viaKey{o.root, pos, msg}
	if h, ok := e.vias[k]; ok {
		return h
	}
	h := &origin{source: o.source, kind: o.kind, posn: o.posn, pos: o.pos, root: o.root, via: o.via}
	h.steps = append(append([]step(nil), o.steps...), step{pos, msg})
	e.vias[k] = h
	return h
}

// add records that location k holds l.
func (e *engine) add(k key, l *label) {
	if k.root == nil || l == nil {
		return
	}
	es := e.mem[k.root]
	for _, en := range es {
		if en.l == l && en.path == k.path {
			return
		}
	}
	if len(es) >= 64 {
		return
	}
	e.mem[k.root] = append(es, entry{k.path, l})
	e.changed = true
}

// entriesUnder returns what the value at k holds, as (relative path,
// label): entries at k and below it keep their relative path; entries at
// an ancestor of k cover all of k.
func (e *engine) entriesUnder(k key) []entry {
	var out []entry
	for _, en := range e.mem[k.root] {
		switch {
		case isPrefixPath(en.path, k.path):
			out = append(out, entry{en.path[len(k.path):], en.l})
		case isPrefixPath(k.path, en.path):
			if l := e.extend(en.l, k.path[len(en.path):]); l != nil {
				out = append(out, entry{"", l})
			}
		}
	}
	return out
}

// copyInto makes dst hold what src holds, keeping field structure.
func (e *engine) copyInto(dst, src key) {
	if src.root == nil || dst.root == nil || (src == dst) {
		return
	}
	for _, en := range e.entriesUnder(src) {
		e.add(dst.sub(en.path), en.l)
	}
}

// addAll makes dst hold everything src holds, flattened.
func (e *engine) addAll(dst, src key) {
	if src.root == nil || dst.root == nil || src == dst {
		return
	}
	for _, en := range e.entriesUnder(src) {
		e.add(dst, en.l)
	}
}

func (e *engine) labels(k key) []*label {
	var out []*label
	for _, en := range e.entriesUnder(k) {
		out = append(out, en.l)
	}
	return out
}

func (e *engine) isClean(k key) bool {
	for p := k.path; ; {
		if e.clean[key{k.root, p}] {
			return true
		}
		i := strings.LastIndexAny(p, ".[%")
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// addrKey is the location a pointer value points to. Keys depend only
// on the SSA form, so they are computed once per value.
func (e *engine) addrKey(p ssa.Value) key {
	if k, ok := e.addrKeys[p]; ok {
		return k
	}
	k := e.computeAddrKey(p)
	e.addrKeys[p] = k
	return k
}

// valKey is the location whose content a value is. Loads, field reads,
// conversions and the like alias their operand's location.
func (e *engine) valKey(v ssa.Value) key {
	if k, ok := e.valKeys[v]; ok {
		return k
	}
	k := e.computeValKey(v)
	e.valKeys[v] = k
	return k
}

func (e *engine) computeAddrKey(p ssa.Value) key {
	switch p := p.(type) {
	case *ssa.FieldAddr:
		return e.addrKey(p.X).sub("." + strconv.Itoa(p.Field))
	case *ssa.IndexAddr:
		if isPointer(p.X.Type()) {
			return e.addrKey(p.X).sub("[]")
		}
		return e.valKey(p.X).sub("[]")
	case *ssa.FreeVar:
		if b, ok := e.binding[p]; ok {
			return e.addrKey(b)
		}
	case *ssa.ChangeType:
		return e.addrKey(p.X)
	case *ssa.Extract, *ssa.UnOp, *ssa.TypeAssert, *ssa.MakeInterface:
		return e.valKey(p)
	}
	return key{p, ""}
}

func (e *engine) computeValKey(v ssa.Value) key {
	switch v := v.(type) {
	case *ssa.UnOp:
		switch v.Op {
		case token.MUL:
			return e.addrKey(v.X)
		case token.ARROW:
			return e.valKey(v.X).sub("[]")
		}
	case *ssa.FieldAddr, *ssa.IndexAddr:
		return e.addrKey(v)
	case *ssa.Field:
		return e.valKey(v.X).sub("." + strconv.Itoa(v.Field))
	case *ssa.Index:
		return e.valKey(v.X).sub("[]")
	case *ssa.Lookup:
		return e.valKey(v.X).sub("[]")
	case *ssa.Slice:
		if isPointer(v.X.Type()) {
			return e.addrKey(v.X)
		}
		return e.valKey(v.X)
	case *ssa.FreeVar:
		if b, ok := e.binding[v]; ok {
			return e.valKey(b)
		}
	case *ssa.ChangeType:
		return e.valKey(v.X)
	case *ssa.Convert:
		return e.valKey(v.X)
	case *ssa.MultiConvert:
		return e.valKey(v.X)
	case *ssa.MakeInterface:
		return e.valKey(v.X)
	case *ssa.ChangeInterface:
		return e.valKey(v.X)
	case *ssa.SliceToArrayPointer:
		return e.valKey(v.X)
	case *ssa.TypeAssert:
		return e.valKey(v.X)
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			return key{c, "%" + strconv.Itoa(v.Index)}
		}
		if n, ok := v.Tuple.(*ssa.Next); ok {
			if r, ok := n.Iter.(*ssa.Range); ok {
				return e.valKey(r.X).sub("[]")
			}
		}
		return e.valKey(v.Tuple)
	}
	return key{v, ""}
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// maxRounds bounds the fixed-point iteration; real packages converge in a
// handful of rounds.
const maxRounds = 12

// solve propagates to a fixed point.
func (e *engine) solve() {
	for round := 0; round < maxRounds; round++ {
		e.changed = false
		for _, f := range e.funcs {
			e.cur = f
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					e.visit(f, instr)
				}
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
	}
}

func (e *engine) visit(f *ssa.Function, instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.Store:
		e.copyInto(e.addrKey(in.Addr), e.valKey(in.Val))
	case *ssa.Phi:
		for _, ed := range in.Edges {
			e.copyInto(key{in, ""}, e.valKey(ed))
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
				e.add(key{g, ""}, &label{origin: e.sourceAt(in.Pos(), "rand.Reader", kindRandom)})
			}
		}
	case *ssa.MapUpdate:
		e.copyInto(e.valKey(in.Map).sub("[]"), e.valKey(in.Value))
	case *ssa.Send:
		e.copyInto(e.valKey(in.Chan).sub("[]"), e.valKey(in.X))
	case *ssa.FieldAddr:
		e.identity(in, e.addrKey(in))
	case *ssa.Field:
		e.identity(in, e.valKey(in))
	case *ssa.Lookup:
		e.identity(in, e.valKey(in))
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
	case *ssa.DebugRef:
		if v, ok := in.Object().(*types.Var); ok && !v.IsField() {
			l = e.identityNameLabel(in.Expr.Pos(), "variable "+v.Name(), v.Name(), "")
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
	if e.cfg.isSourceField(structPkg(structType), name) {
		return &label{origin: e.sourceAt(pos, "field "+name, kindConfigured)}
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
	return &label{origin: e.sourceAt(pos, what, kind)}
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
	case isBarrier(cal) || e.cfg.isBarrier(cal):
		ci.mode = callBarrier
		return ci
	}
	if kind, out, ok := sourceCall(cal); ok || e.cfg.isSource(cal) {
		if !ok {
			kind, out = kindConfigured, -1
		}
		ci.mode, ci.out = callSource, out
		ci.source = &label{origin: e.sourceAt(pos, cal.display(), kind)}
		return ci
	}
	if val != nil && !setterKeyName(cal.name) && cal.sig != nil && hasDataResult(cal.sig) {
		// Accessors of per-attempt identity: middleware.GetReqID(ctx),
		// span.SpanContext().TraceID(), retry.AttemptFromContext(ctx).
		if k := identityKind(trimAccessor(cal.name)); k != "" {
			ci.accessor = &label{origin: e.sourceAt(pos, cal.display(), k)}
		}
	}
	if val != nil && cal.recv != "" && isHeaderGetter(cal.name) && len(c.Args) >= 1 {
		if s, ok := constString(c.Args[len(c.Args)-1]); ok {
			if keyname.Header.Match(s) {
				// The incoming request's own Idempotency-Key: stable across
				// the client's retries.
				ci.clean = true
				ci.mode = callBarrier
				return ci
			}
			if k := identityKind(s); k != "" {
				ci.accessor = &label{origin: e.sourceAt(pos, fmt.Sprintf("%s(%q)", cal.name, s), k)}
			}
		}
	}
	switch {
	case cal.ssa != nil && e.local[originOf(cal.ssa)]:
		ci.mode, ci.local = callLocal, originOf(cal.ssa)
	case cal.fn != nil && !cal.iface && cal.fn.Pkg() != nil && e.pass.ImportPackageFact(cal.fn.Pkg(), new(analyzed)):
		var s Summary
		if e.pass.ImportObjectFact(cal.fn, &s) {
			ci.mode, ci.fact = callFact, &s
		}
	case cal.iface && cal.fn != nil && cal.fn.Pkg() != nil && !isStdPath(cal.fn.Pkg().Path()):
		// An interface of a non-standard package: the implementation is
		// unknown, and guessing would make findings up.
	case cal.fn == nil:
		// A call of a function value.
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
			e.addAll(key{val, "[]"}, e.valKey(a))
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
			e.add(dst.sub(en.path), &label{origin: e.hop(l.origin, pos, msg)})
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
			e.record(e.cur, pos, l.origin, desc, s.weak, nil, []step{{pos, "passed to " + callee + ", where it reaches " + s.desc + " at " + s.posn}})
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
			e.add(dst, &label{origin: e.hop(e.importedOrigin(fl), pos, msg)})
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
			e.add(dst, &label{origin: e.hop(e.importedOrigin(fl), pos, "written by "+cal.display())})
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

func (e *engine) addParamSink(f *ssa.Function, s paramSink) {
	for _, o := range e.paramSinks[f] {
		if o.param == s.param && o.path == s.path && o.desc == s.desc && o.weak == s.weak {
			return
		}
	}
	if len(e.paramSinks[f]) >= 32 {
		return
	}
	e.paramSinks[f] = append(e.paramSinks[f], s)
	e.changed = true
}

// record notes a per-attempt origin reaching a sink at pos. The first
// origin found for a position is kept.
func (e *engine) record(fn *ssa.Function, pos token.Pos, o *origin, desc string, weak bool, obj types.Object, hops []step) {
	if !pos.IsValid() {
		return
	}
	if old, ok := e.findingAt[pos]; ok {
		if old.weak && !weak {
			old.weak, old.o, old.desc, old.hops = false, o, desc, hops
		}
		return
	}
	f := &finding{fn: fn, pos: pos, o: o, desc: desc, weak: weak, obj: obj, hops: hops}
	e.findingAt[pos] = f
	e.findings = append(e.findings, f)
}

func (e *engine) checkSinks() {
	for _, s := range e.sites {
		k := e.valKey(s.val)
		if s.isAddr {
			k = e.addrKey(s.val)
		}
		for _, l := range e.labels(k) {
			if l.origin != nil {
				e.record(s.fn, s.pos, l.origin, s.desc, s.weak, s.obj, nil)
			} else {
				e.addParamSink(l.fn, paramSink{param: l.param, path: l.path, desc: s.desc, posn: e.posn(s.pos), pos: s.pos, weak: s.weak})
			}
		}
	}
}

// exportFacts publishes the summaries of the package's named functions.
func (e *engine) exportFacts() {
	for _, f := range e.funcs {
		if f.Parent() != nil {
			continue
		}
		obj, ok := f.Object().(*types.Func)
		// Only exported functions and methods can be called from other
		// packages.
		if !ok || obj.Pkg() != e.pass.Pkg || !obj.Exported() {
			continue
		}
		s := e.summarize(f)
		if !s.empty() {
			s.sort()
			e.pass.ExportObjectFact(obj, s)
		}
	}
}

func (e *engine) flowFrom(l *label, f *ssa.Function, to int, toPath string) (Flow, bool) {
	fl := Flow{To: to, ToPath: toPath}
	switch {
	case l.origin != nil:
		o := l.origin
		fl.From, fl.Source, fl.Kind, fl.Posn = -1, o.source, o.kind, o.posn
		fl.Via = append([]string(nil), o.via...)
		fl.Via = append(fl.Via, funcDisplay(f))
		return fl, true
	case l.fn == f:
		fl.From, fl.FromPath = l.param, l.path
		return fl, true
	}
	return fl, false
}

func (e *engine) summarize(f *ssa.Function) *Summary {
	s := &Summary{}
	seen := map[string]bool{}
	addFlow := func(dst *[]Flow, fl Flow) {
		k := fmt.Sprint(fl)
		if !seen[k] {
			seen[k] = true
			*dst = append(*dst, fl)
		}
	}
	n := f.Signature.Results().Len()
	for _, ret := range e.returns[f] {
		for i, r := range ret.Results {
			if i >= n || !carriesData(r.Type()) {
				continue
			}
			for _, en := range e.entriesUnder(e.valKey(r)) {
				if en.l.fn == f && en.l.param >= 0 && false {
					continue
				}
				if fl, ok := e.flowFrom(en.l, f, i, en.path); ok {
					addFlow(&s.Results, fl)
				}
			}
		}
	}
	for j, p := range f.Params {
		if !carriesData(p.Type()) || !mayHoldPointer(p.Type()) {
			continue
		}
		for _, en := range e.entriesUnder(key{p, ""}) {
			if en.l.fn == f && en.l.param == j {
				continue
			}
			if fl, ok := e.flowFrom(en.l, f, j, en.path); ok {
				addFlow(&s.Outs, fl)
			}
		}
	}
	for _, ps := range e.paramSinks[f] {
		k := fmt.Sprint(ps.param, ps.path, ps.desc, ps.weak)
		if seen[k] {
			continue
		}
		seen[k] = true
		s.Sinks = append(s.Sinks, SinkFlow{Param: ps.param, Path: ps.path, Sink: ps.desc, Posn: ps.posn, Weak: ps.weak})
	}
	return s
}

// isPersistCall reports calls that write their arguments to a database:
// a per-attempt key handed to one of them is being persisted (to be read
// back), not used as a key yet.
func isPersistCall(cal callee) bool {
	n := cal.name
	switch n {
	case "Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext", "NamedExec", "NamedExecContext",
		"NamedQuery", "NamedQueryContext", "Queue", "CopyFrom", "SendBatch", "MustExec", "MustExecContext", "QueryRowx", "Queryx",
		"SetNX", "SetNx", "HSetNX", "SAdd", "PutItem", "TransactWriteItems":
		return true
	}
	lower := strings.ToLower(n)
	for _, p := range []string{"insert", "save", "persist", "store", "upsert", "record", "createintent", "putintent", "writeintent", "mark"} {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

// markPersisted collects the origins handed to database writes.
func (e *engine) markPersisted() {
	for _, f := range e.funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				cal := describeCallee(call.Common())
				if !isPersistCall(cal) {
					continue
				}
				for _, a := range callArgs(call.Common()) {
					for _, l := range e.labels(e.valKey(a)) {
						if l.origin != nil {
							e.persisted[l.origin.root] = true
						}
					}
				}
			}
		}
	}
}

func (e *engine) diagnostics() []analysis.Diagnostic {
	e.markPersisted()
	sort.SliceStable(e.findings, func(i, j int) bool { return e.findings[i].pos < e.findings[j].pos })
	// One origin reaching several sinks in a function is one mistake:
	// report it at the provider-facing (strong) sinks if it reaches any,
	// else at the last name-based sink.
	type group struct {
		fn *ssa.Function
		o  *origin
	}
	// A variable is reported once, where it is first tainted.
	var candidates []*finding
	for _, f := range e.findings {
		if f.obj != nil {
			if e.reportedOb[f.obj] {
				continue
			}
			e.reportedOb[f.obj] = true
		}
		candidates = append(candidates, f)
	}
	strong := map[group]bool{}
	lastWeak := map[group]*finding{}
	for _, f := range candidates {
		g := group{f.fn, f.o.root}
		if !f.weak {
			strong[g] = true
		} else if !e.persisted[f.o.root] {
			lastWeak[g] = f
		}
	}
	var out []analysis.Diagnostic
	for _, f := range candidates {
		g := group{f.fn, f.o.root}
		if f.weak && (e.persisted[f.o.root] || strong[g] || lastWeak[g] != f) {
			continue
		}
		if f.weak && f.o.kind == kindIdentity && strings.Contains(keyname.Normalize(f.desc), "dedup") {
			// Deduplicating inbound deliveries by their message id is
			// what a message id is for; a key sent to a provider is not.
			continue
		}
		o := f.o
		msg := fmt.Sprintf("idempotency key built from %s (%s) at %s; a redelivery computes a different key: %s", o.source, o.kind, o.posn, remedy)
		var related []analysis.RelatedInformation
		if o.pos.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: o.pos, Message: fmt.Sprintf("%s: %s", o.source, o.kind)})
		} else if len(o.via) > 0 {
			msg = fmt.Sprintf("idempotency key built from %s (%s) at %s via %s; a redelivery computes a different key: %s", o.source, o.kind, o.posn, strings.Join(o.via, " → "), remedy)
		}
		for _, s := range o.steps {
			related = append(related, analysis.RelatedInformation{Pos: s.pos, Message: s.msg})
		}
		for _, s := range f.hops {
			related = append(related, analysis.RelatedInformation{Pos: s.pos, Message: s.msg})
		}
		related = append(related, analysis.RelatedInformation{Pos: f.pos, Message: "used as idempotency key: " + f.desc})
		out = append(out, analysis.Diagnostic{Pos: f.pos, Category: Rule.ID, Message: msg, Related: related})
	}
	return out
}
