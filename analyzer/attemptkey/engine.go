package attemptkey

// The engine: abstract locations, labels and the state of the analysis.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/keyname"
	"github.com/idemcheck/idemcheck/analyzer/reach"
)

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
	if k.root == nil {
		return key{}
	}
	p := collapse(k.path + elem)
	if tooDeep(p) {
		return key{}
	}
	return key{k.root, p}
}

// collapse folds the access path of a recursive type onto its first
// occurrence: in n.Content[i].Content[j] (a yaml.Node's children) the
// step ".6[]" repeats, and the path is the same location as n.Content[i],
// whose type it has. Without it, locations and parameter labels multiply
// with every level of a tree, and a package with a recursive type would
// need a cap on what a location holds.
func collapse(p string) string {
	elems := splitPath(p)
	for n := 1; n <= 2; n++ {
		for i := 0; i+2*n <= len(elems); i++ {
			if strings.Join(elems[i:i+n], "") == strings.Join(elems[i+n:i+2*n], "") && (n == 2 || elems[i] == "[]") {
				return collapse(strings.Join(append(elems[:i+n:i+n], elems[i+2*n:]...), ""))
			}
		}
	}
	return p
}

// splitPath splits ".1[].3%0" into ".1", "[]", ".3", "%0".
func splitPath(p string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i] == '.' || p[i] == '[' || p[i] == '%' {
			out = append(out, p[start:i])
			start = i
		}
	}
	if p == "" {
		return nil
	}
	return out
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

// A map's element written or read with a constant key has a path
// element of its own ("[id]"); one written or read with any other key is
// "[]", which may be any of them. So "[]" and "[id]" match each other, and
// "[id]" and "[status]" do not: m["id"] is not tainted by m["started"].

// keyElem is the path element of a map element with constant key k, or
// "[]" when k cannot be written in a path.
func keyElem(k string) string {
	if k == "" || len(k) > 40 {
		return "[]"
	}
	for _, c := range k {
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return "[]"
		}
	}
	return "[" + k + "]"
}

// hasKeyElem reports a path with an element of a constant map key.
func hasKeyElem(p string) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '[' && p[i+1] != ']' {
			return true
		}
	}
	return false
}

func elemsMatch(a, b string) bool {
	if a == b {
		return true
	}
	keyed := func(x string) bool { return len(x) > 2 && x[0] == '[' }
	return a == "[]" && keyed(b) || b == "[]" && keyed(a)
}

// matchPrefix reports whether prefix is p or an ancestor of p, element by
// element (see keyElem), and returns the rest of p below it.
func matchPrefix(p, prefix string) (string, bool) {
	if isPrefixPath(p, prefix) {
		return p[len(prefix):], true
	}
	if !hasKeyElem(p) && !hasKeyElem(prefix) {
		return "", false
	}
	pe, xe := splitPath(p), splitPath(prefix)
	if len(xe) > len(pe) {
		return "", false
	}
	for i := range xe {
		if !elemsMatch(pe[i], xe[i]) {
			return "", false
		}
	}
	return strings.Join(pe[len(xe):], ""), true
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
	posn   string    // "/abs/dir/file.go:line:col" of the source, wherever it is
	pos    token.Pos // valid when the source is in this package
	steps  []step
	root   *origin // the origin before any hop
	via    []string
	// persisted: a dependency wrote it to the database before returning
	// it (Flow.Persisted); set on imported roots only.
	persisted bool
}

type step struct {
	pos token.Pos
	msg string
	// out is the function of this package the value came out of at this
	// step (returned or written by it), nil for other steps.
	out *ssa.Function
}

type entry struct {
	path string
	l    *label
}

type sinkSite struct {
	fn     *ssa.Function
	instr  ssa.Instruction // where the value becomes a key
	leaves bool            // the key leaves here: a call argument (header, setter, callee's key)
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
	fn     *ssa.Function
	instr  ssa.Instruction
	leaves bool
	pos    token.Pos
	o      *origin
	desc   string
	weak   bool
	obj    types.Object
	hops   []step
}

type engine struct {
	pass  *analysis.Pass
	model *keymodel.Model
	reach *reach.Result // how the package's functions are entered
	// fallbacks caches requestFallback by call.
	fallbacks map[*ssa.Call]bool
	// fallbackDraws are the draws made only when an exported function's
	// caller hands in no key (paramFallback), by origin.
	fallbackDraws map[*origin]handedIn
	// paramFallbacks caches paramFallback by call.
	paramFallbacks map[*ssa.Call]handedIn
	keys           *keyname.Matcher // names of keys: the model's, or -keypattern's

	pkg     *ssa.Package
	funcs   []*ssa.Function
	local   map[*ssa.Function]bool
	returns map[*ssa.Function][]*ssa.Return
	binding map[*ssa.FreeVar]ssa.Value

	cur          *ssa.Function   // the function being visited
	curInstr     ssa.Instruction // the instruction being visited
	calls        map[*ssa.CallCommon]*callInfo
	idLabels     map[ssa.Instruction]*label
	addrKeys     map[ssa.Value]key
	valKeys      map[ssa.Value]key
	mem          map[ssa.Value][]entry
	memIndex     map[ssa.Value]map[entryKey]bool
	widened      map[ssa.Value]bool
	fnValues     map[ssa.Value][]*ssa.Function // function-typed parameters → functions passed for them
	changedIn    *ssa.Function                 // a function whose locations changed in the last round
	clean        map[key]bool
	fills        map[*ssa.Alloc][]ssa.Instruction
	methods      map[string][]importedMethod
	stores       map[*ssa.Global][]ssa.Value
	capped       []string // bounds that cut the analysis short
	originLabels map[*origin]*label
	counterVars  map[*ssa.Global]token.Pos
	loopCounters map[*ssa.Phi]token.Pos
	changed      bool

	params        map[paramKey]*label
	sources       map[token.Pos]*origin
	vias          map[viaKey]*origin
	imported      map[string]*origin
	foreign       map[string]token.Pos // positions of sources in other packages
	sites         []sinkSite
	paramSinks    map[*ssa.Function][]paramSink
	persistParams map[*ssa.Function]map[int]bool // parameters a function writes to the database
	persistSites  map[*ssa.Function][]persistSite

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

func newEngine(pass *analysis.Pass, model *keymodel.Model, keys *keyname.Matcher) *engine {
	if keys == nil {
		keys = model.Keys
	}
	return &engine{
		pass:           pass,
		model:          model,
		keys:           keys,
		local:          map[*ssa.Function]bool{},
		calls:          map[*ssa.CallCommon]*callInfo{},
		fallbacks:      map[*ssa.Call]bool{},
		fallbackDraws:  map[*origin]handedIn{},
		paramFallbacks: map[*ssa.Call]handedIn{},
		idLabels:       map[ssa.Instruction]*label{},
		addrKeys:       map[ssa.Value]key{},
		valKeys:        map[ssa.Value]key{},
		returns:        map[*ssa.Function][]*ssa.Return{},
		binding:        map[*ssa.FreeVar]ssa.Value{},
		mem:            map[ssa.Value][]entry{},
		memIndex:       map[ssa.Value]map[entryKey]bool{},
		widened:        map[ssa.Value]bool{},
		clean:          map[key]bool{},
		fills:          map[*ssa.Alloc][]ssa.Instruction{},
		params:         map[paramKey]*label{},
		sources:        map[token.Pos]*origin{},
		vias:           map[viaKey]*origin{},
		imported:       map[string]*origin{},
		foreign:        map[string]token.Pos{},
		paramSinks:     map[*ssa.Function][]paramSink{},
		findingAt:      map[token.Pos]*finding{},
		originLabels:   map[*origin]*label{},
		reportedOb:     map[types.Object]bool{},
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
			if e.keys.Match(p.Name()) && carriesData(p.Type()) && !isSetterName(f.Name()) {
				for _, path := range e.keyPaths(p.Type()) {
					e.addParamSink(f, paramSink{param: i, path: path, desc: "parameter " + p.Name(), posn: e.posn(p.Pos()), pos: p.Pos(), weak: true})
				}
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

// keyPaths are the paths within a value of type t, named like a key, that
// hold the key: the value itself, or, for a struct (a record the name
// calls a key, like *IdempotencyKey{KeyID, ResponseMessage}), its fields
// named like a key. The name picks the field; it never makes a whole
// record the key.
func (e *engine) keyPaths(t types.Type) []string {
	rec := t
	if p, ok := t.Underlying().(*types.Pointer); ok {
		rec = p.Elem()
	}
	st, ok := rec.Underlying().(*types.Struct)
	if !ok {
		return []string{""}
	}
	var paths []string
	for i := 0; i < st.NumFields(); i++ {
		if name := st.Field(i).Name(); e.keys.Match(name) || keymodel.RecordKeyField(rec, name) {
			paths = append(paths, "."+strconv.Itoa(i))
		}
	}
	return paths
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
		for _, g := range e.calleesOf(f) {
			visit(g)
		}
		order = append(order, f)
	}
	for _, f := range e.funcs {
		visit(f)
	}
	return order
}

// calleesOf returns the functions of this package f calls: directly, as
// a method value, or through a function-typed parameter.
func (e *engine) calleesOf(f *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if m, _, ok := e.boundMethod(call.Common()); ok {
					out = append(out, m)
				} else if callee := call.Common().StaticCallee(); callee != nil && e.local[originOf(callee)] {
					out = append(out, originOf(callee))
				}
				out = append(out, e.funcValues()[call.Common().Value]...)
			}
		}
	}
	return out
}

// recursiveSCCs returns, for the last function of each recursive strongly
// connected component of the call graph in callees-first order, the
// component's functions in that order. solve iterates such a component to
// its own fixed point before visiting its callers, so mutual recursion is
// settled bottom-up instead of by rounds over the whole package.
func (e *engine) recursiveSCCs() map[*ssa.Function][]*ssa.Function {
	index := map[*ssa.Function]int{}
	low := map[*ssa.Function]int{}
	onStack := map[*ssa.Function]bool{}
	var stack []*ssa.Function
	comp := map[*ssa.Function]int{}
	var comps [][]*ssa.Function
	selfLoop := map[*ssa.Function]bool{}
	var connect func(f *ssa.Function)
	connect = func(f *ssa.Function) {
		index[f] = len(index)
		low[f] = index[f]
		stack = append(stack, f)
		onStack[f] = true
		for _, g := range e.calleesOf(f) {
			if g == f {
				selfLoop[f] = true
			}
			if _, ok := index[g]; !ok {
				connect(g)
				low[f] = min(low[f], low[g])
			} else if onStack[g] {
				low[f] = min(low[f], index[g])
			}
		}
		if low[f] == index[f] {
			var c []*ssa.Function
			for {
				g := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[g] = false
				comp[g] = len(comps)
				c = append(c, g)
				if g == f {
					break
				}
			}
			comps = append(comps, c)
		}
	}
	for _, f := range e.funcs {
		if _, ok := index[f]; !ok {
			connect(f)
		}
	}
	members := map[int][]*ssa.Function{}
	for _, f := range e.funcs { // callees-first order
		if c := comp[f]; len(comps[c]) > 1 || selfLoop[f] {
			members[c] = append(members[c], f)
		}
	}
	out := map[*ssa.Function][]*ssa.Function{}
	for _, m := range members {
		out[m[len(m)-1]] = m
	}
	return out
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
	p := collapse(l.path + rest)
	if tooDeep(p) {
		return nil
	}
	return e.paramLabel(l.fn, l.param, p)
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

// fullPosn renders a position as "file:line:col" with the file name as
// the file set has it: a source's position in facts, so that a dependent
// package can point at it.
func (e *engine) fullPosn(pos token.Pos) string {
	p := e.pass.Fset.Position(pos)
	if !p.IsValid() {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// posOf returns a position in this pass's file set for a "file:line:col"
// of another package (a source an imported summary names), so that it can
// be related information like any other step. The file set only needs
// the line and column: a small file of that name is added, whose lines
// before the one wanted are one byte long.
func (e *engine) posOf(posn string) token.Pos {
	if pos, ok := e.foreign[posn]; ok {
		return pos
	}
	pos := token.NoPos
	if file, line, col, ok := splitFullPosn(posn); ok {
		f := e.pass.Fset.AddFile(file, -1, line-1+col)
		lines := make([]int, line)
		for i := range lines {
			lines[i] = i
		}
		f.SetLines(lines)
		pos = f.Pos(line - 1 + col - 1)
	}
	e.foreign[posn] = pos
	return pos
}

// splitFullPosn parses "file:line:col" (the file may contain colons).
func splitFullPosn(posn string) (file string, line, col int, ok bool) {
	i := strings.LastIndexByte(posn, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(posn[:i], ':')
	if j <= 0 {
		return "", 0, 0, false
	}
	line, err1 := strconv.Atoi(posn[j+1 : i])
	col, err2 := strconv.Atoi(posn[i+1:])
	if err1 != nil || err2 != nil || line < 1 || col < 1 || line > 1<<20 || col > 1<<16 {
		return "", 0, 0, false
	}
	return posn[:j], line, col, true
}

func (e *engine) sourceAt(pos token.Pos, source, kind string) *origin {
	if o, ok := e.sources[pos]; ok {
		return o
	}
	o := &origin{source: source, kind: kind, posn: e.fullPosn(pos), pos: pos}
	o.root = o
	e.sources[pos] = o
	return o
}

func (e *engine) importedOrigin(f Flow) *origin {
	k := f.Source + "\x00" + f.Kind + "\x00" + f.Posn + "\x00" + strings.Join(f.Via, "\x00") + "\x00" + strconv.FormatBool(f.Persisted)
	if o, ok := e.imported[k]; ok {
		return o
	}
	o := &origin{source: f.Source, kind: f.Kind, posn: f.Posn, via: f.Via, persisted: f.Persisted}
	o.root = o
	e.imported[k] = o
	return o
}

// originLabel is the one label holding o: locations deduplicate labels
// by identity, so a fresh label per transfer would pile up copies of the
// same origin round after round.
func (e *engine) originLabel(o *origin) *label {
	if l, ok := e.originLabels[o]; ok {
		return l
	}
	l := &label{origin: o}
	e.originLabels[o] = l
	return l
}

// hop records that o crossed a call at pos, coming out of the local
// function out (nil when the callee is not in this package).
func (e *engine) hop(o *origin, pos token.Pos, msg string, out *ssa.Function) *origin {
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
	h.steps = append(append([]step(nil), o.steps...), step{pos, msg, out})
	e.vias[k] = h
	return h
}

// add records that location k holds l. A location holds each parameter
// label once per path, and each per-attempt source once per path: the
// same source reached by another route (another chain of calls) adds
// nothing a finding needs, since a finding names one route. A location
// that comes to hold more than maxEntries pairs is widened (see widen):
// no value is ever dropped.
func (e *engine) add(k key, l *label) {
	if k.root == nil || l == nil {
		return
	}
	if e.widened[k.root] {
		k.path = ""
		if l.origin == nil {
			l = e.paramLabel(l.fn, l.param, "")
		}
	}
	ek := entryKey{path: k.path, l: l}
	if l.origin != nil {
		ek = entryKey{path: k.path, root: l.origin.root}
	}
	set := e.memIndex[k.root]
	if set == nil {
		set = map[entryKey]bool{}
		e.memIndex[k.root] = set
	}
	if set[ek] {
		return
	}
	set[ek] = true
	e.mem[k.root] = append(e.mem[k.root], entry{k.path, l})
	e.changed = true
	if e.cur != nil {
		e.changedIn = e.cur
	}
	if len(e.mem[k.root]) > maxEntries && !e.widened[k.root] {
		e.widen(k.root)
	}
}

// maxEntries is the number of (path, value) pairs a location holds before
// it is widened.
const maxEntries = 64

// widen makes root field-insensitive: every value it holds, at any path,
// is held by the whole location, and a parameter's part by the whole
// parameter. That over-approximates (a sibling field may look tainted)
// but drops nothing, and bounds the location by the parameters and
// sources in view. Recursive types (a yaml.Node tree) are what grows a
// location past the bound: their paths times their parameters' paths.
func (e *engine) widen(root ssa.Value) {
	e.widened[root] = true
	old := e.mem[root]
	e.mem[root] = nil
	e.memIndex[root] = nil
	for _, en := range old {
		e.add(key{root, ""}, en.l)
	}
}

// entryKey identifies what a location holds at a path: a parameter label,
// or a source (by its first origin).
type entryKey struct {
	path string
	l    *label
	root *origin
}

// entriesUnder returns what the value at k holds, as (relative path,
// label): entries at k and below it keep their relative path; entries at
// an ancestor of k cover all of k.
func (e *engine) entriesUnder(k key) []entry {
	var out []entry
	for _, en := range e.mem[k.root] {
		if rest, ok := matchPrefix(en.path, k.path); ok {
			out = append(out, entry{rest, en.l})
		} else if rest, ok := matchPrefix(k.path, en.path); ok {
			if l := e.extend(en.l, rest); l != nil {
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
			if e.readBack(v) {
				// Its own location: only what the barrier wrote.
				return key{v, ""}
			}
			return e.addrKey(v.X)
		case token.ARROW:
			return e.valKey(v.X).sub("[]")
		}
	case *ssa.FieldAddr, *ssa.IndexAddr:
		return e.addrKey(v)
	case *ssa.Field:
		return e.valKey(v.X).sub("." + strconv.Itoa(v.Field))
	case *ssa.Index:
		if isTable(v.X) {
			return key{v, ""} // its own value: what the index selects
		}
		return e.valKey(v.X).sub("[]")
	case *ssa.Lookup:
		if isTable(v.X) {
			return key{v, ""}
		}
		return e.valKey(v.X).sub(mapElem(v.Index))
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

// mapElem is the path element of a map's element at index k: its own for
// a constant string key, else "[]".
func mapElem(k ssa.Value) string {
	if s, ok := constString(k); ok {
		return keyElem(s)
	}
	return "[]"
}

// isTable reports a constant indexed as a lookup table (an encoder's
// alphabet): the element read depends on the index, so the index's value
// flows into it.
func isTable(x ssa.Value) bool {
	_, ok := x.(*ssa.Const)
	return ok
}

// capHit notes, once per reason, that a bound cut the analysis short: the
// package gets a note saying its findings may be incomplete.
func (e *engine) capHit(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, c := range e.capped {
		if c == msg {
			return
		}
	}
	e.capped = append(e.capped, msg)
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}
