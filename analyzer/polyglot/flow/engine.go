// Package flow is the one flow engine for Python and TypeScript: it reads
// the IR of package ir and reports the rules of idemcheck lint (IDEM001,
// IDEM003, IDEM004, IDEM005, IDEM007) with the meaning they have for Go.
//
// Values are followed forward from per-attempt sources (the language's
// tables in keymodel) to the places where a key leaves the process: a
// header, option or body field of an outbound HTTP or SDK call named like
// a key. Each function is analyzed once into a summary (what its result
// is made of, in terms of its parameters and its own sources, and which
// parameters reach a sink), so the cost grows with the size of the code.
// A value the attempt draws (not a transport's id, which the next delivery
// brings anew) is not reported when a database write of it runs before
// the effect on every path (it is persisted); none is when it was read
// back from the database, or when it is drawn once above a retry loop of
// an HTTP route, which nothing redelivers.
package flow

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
	"github.com/idemcheck/idemcheck/analyzer/report"
)

// Program is what one run analyzes.
type Program struct {
	Files []*ir.File
	// Resolve returns the project file a module imported by from names,
	// or nil when the module is not part of the project.
	Resolve func(from *ir.File, module string) *ir.File
	Model   *keymodel.Model
	// Source returns a file's text, for the names it mentions; nil when
	// the text cannot be had (then every name counts as mentioned).
	Source func(f *ir.File) []byte
}

// Analyze runs every rule over the program and returns the findings,
// with suppressed ones left out.
func Analyze(p *Program) []report.Finding {
	e := &engine{prog: p, files: map[*ir.File]*fileInfo{}, classOf: map[*ir.Func]*ir.Func{}, classFile: map[*ir.Func]*fileInfo{}, sums: map[*ir.Func]*summary{}, storedCopies: map[*origin]*origin{}, instanceLibs: map[classRef]map[string]string{}, entry: map[*ir.Func]string{}, callers: map[*ir.Func][]*ir.Func{}, handedTo: map[*ir.Func][]*ir.Func{}, unresolvedCalls: map[string][]unresolvedCall{}, keyFromCaller: map[*ir.Func][]keyFromCaller{}, webhook: map[*ir.Func]bool{}, retried: map[*ir.Func]bool{}, handedLambdas: map[*ir.Func][]handOff{}, seen: map[string]int{}, outer: map[*ir.Func]map[string]*value{}, instance: map[classRef]map[string]*value{}, ctorArgs: map[classRef]map[string]int{}, bases: map[*ir.Func]*value{}}
	for _, f := range p.Files {
		e.index(f)
	}
	for _, f := range p.Files {
		e.findEntries(f)
	}
	for _, f := range p.Files {
		fi := e.files[f]
		e.moduleEnv(fi)
		for _, fn := range f.Funcs {
			if !fn.IsClass {
				e.summarize(fi, fn)
			}
		}
	}
	e.reportDrawnKeys()
	e.reportKeylessWrites()
	e.reportOrphanFallbacks()
	return e.suppress(oneKeyPerSink(e.findings))
}

// oneKeyPerSink merges the IDEM001 findings of one sink into the first:
// one key, one finding, whatever number of per-attempt values reach it
// (a clock the function reads and one its callers put in the payload).
// The others' positions become related ones.
func oneKeyPerSink(fs []report.Finding) []report.Finding {
	first := map[string]int{}
	var out []report.Finding
	for _, f := range fs {
		if f.Rule != "IDEM001" {
			out = append(out, f)
			continue
		}
		k := fmt.Sprintf("%s\x00%d\x00%d", f.File, f.Line, f.Column)
		i, seen := first[k]
		if !seen {
			first[k] = len(out)
			out = append(out, f)
			continue
		}
		for _, r := range f.Related {
			if !slices.Contains(out[i].Related, r) {
				out[i].Related = append(out[i].Related, r)
			}
		}
	}
	return out
}

type engine struct {
	prog      *Program
	files     map[*ir.File]*fileInfo
	sums      map[*ir.Func]*summary
	entry     map[*ir.Func]string          // "route" or "consumer"
	classOf   map[*ir.Func]*ir.Func        // a method's class
	classFile map[*ir.Func]*fileInfo       // a class's file
	declared  map[*ir.Func]map[string]bool // declaredNames, once per function
	words     map[string]int               // nameUses, once
	// wordsByFile are each file's words (fileWords), read once.
	wordsByFile map[*ir.File]map[string]int
	defined     map[string][]*ir.Func          // definedAs: functions by name, once
	families    map[*ir.Func]map[*ir.Func]bool // classFamily, once per class
	// resolved are the call sites of project functions, by the callee's
	// name: a mention of a name there is a call of the function it
	// resolved to, and says nothing of another function of that name.
	resolved map[string]map[callSite]bool
	findings []report.Finding
	// seen: the index in findings of each rule, position and message.
	seen     map[string]int
	outer    map[*ir.Func]map[string]*value // outerEnv, once per enclosing function
	instance map[classRef]map[string]*value // instanceFields, once per class
	ctorArgs map[classRef]map[string]int    // constructorArgs, with instanceFields
	bases    map[*ir.Func]*value            // sdkBase, once per class

	// For IDEM002: the acting SDK calls without a key, who calls each
	// project function, and the functions that verify a webhook.
	keyless       []keylessWrite
	keyFromCaller map[*ir.Func][]keyFromCaller
	callers       map[*ir.Func][]*ir.Func
	// handedTo: the functions that hand a project function to a call
	// (threading.Thread(target=self.work), executor.submit(job)) or call
	// it through a table of handlers (self.commands[kind](msg)): they may
	// run it, with arguments this engine does not bind.
	handedTo map[*ir.Func][]*ir.Func
	webhook  map[*ir.Func]bool
	// receivers: the functions that receive a webhook, its verifiers and
	// their callers (receivesWebhook), once.
	receivers map[*ir.Func]bool
	// retried: functions a retry library runs again (handed to pRetry,
	// decorated with tenacity's @retry), with the same arguments.
	retried map[*ir.Func]bool
	// topLevel: the file declaring each top-level function, once.
	topLevel map[*ir.Func]*ir.File
	// importedNames: the names other modules import from each file, once.
	importedNames map[*ir.File]map[string]bool
	starExporters map[*ir.File][]*ir.File // barrels: export * from the file
	// boundNames: the consts top-level arrow functions are bound to.
	boundNames map[*ir.Func]string
	// wholeImporters: the files that bind all of a file to one name
	// (a namespace, require, a dynamic import).
	wholeImporters map[*ir.File][]*ir.File
	// instanceLibs: the library of each field a class's constructor sets
	// to an argument declared of that library's type.
	instanceLibs map[classRef]map[string]string
	// storedCopies: the one stored copy of each origin a function wrote
	// to the database before returning it (see markStored).
	storedCopies map[*origin]*origin
	// namedExporters: barrels' export { a as b } from the file.
	namedExporters map[*ir.File][]namedReexport
	apps           map[string]jsPackage // nearestPackage, by directory walked
	pathLoading    map[string]bool      // loadsByPath, by package.json directory
	// Method calls whose receiver could not be resolved
	// (ctx.services.stripe.transfer(…) on an untyped parameter), by
	// method name.
	unresolvedCalls map[string][]unresolvedCall
	// scheduled: the Supabase edge functions pg_cron calls, by the
	// directory holding supabase/.
	scheduled map[string]map[string]bool
	instances map[string]map[string]bool // instanceNames, once
	// Fallbacks for a function's parameters, reported at the end when no
	// caller in view reaches the function.
	orphanFallbacks []orphanFallback
	// drawnAt are the IDEM001 findings, reported at the end unless the
	// function drawing the key is dead code.
	drawnAt []drawnKey
	// handedLambdas are the project functions each function literal is
	// handed to (retriedByHelperInRoute).
	handedLambdas map[*ir.Func][]handOff
}

// unresolvedCall is a method call on a receiver of unknown type: the
// function making it, and the last name of the receiver's expression
// (stripe in ctx.services.stripe).
type unresolvedCall struct {
	caller *ir.Func
	recv   string
	call   *ir.Call
}

type fileInfo struct {
	f       *ir.File
	tables  keymodel.Tables
	defs    map[string]*ir.Func // top-level functions and classes
	methods map[string]*ir.Func // "Class.method"
	imports map[string]ir.Import
	stars   []ir.Import // export * from, from … import *
	globals map[string]*value
	owner   map[*ir.Func]*ir.File
	busy    bool
	// starBusy is set while a name is looked up through stars.
	starBusy bool
}

type summary struct {
	result *value
	sinks  []paramSink
	// sqlText: parameters the function passes on as a query's SQL text,
	// which its callers' string arguments are.
	sqlText []int
	// persists: parameters the function writes whole to the database on
	// every path (a repository's add(order)).
	persists []int
	// stored: origins of the result the function wrote to the database
	// before returning them.
	stored map[*origin]bool
	// forwards: parameters the function calls with the arguments that
	// follow them (a wrapper that runs what it is handed).
	forwards []int
	done     bool
	busy     bool
}

// paramSink is a parameter (or a field of one) that reaches a key sink.
type paramSink struct {
	param paramRef
	site  *sinkSite
	hops  []report.Related
	// persisted: the function writes the parameter to the database before
	// the sink, which settles a value the caller's attempt draws, not a
	// transport's id (drawnByAttempt).
	persisted bool
	// fallback: the parameter stands for a key whose absence draws this
	// origin instead (key or uuid4()); the caller's argument decides.
	fallback *origin
}

// sinkSite is where a key leaves the process.
type sinkSite struct {
	file string
	pos  ir.Pos
	what string // `header "Idempotency-Key"`, `idempotency_key=`
	fn   *ir.Func
	// inert: the call is a money-moving SDK's operation that moves none
	// (stripe.tax.Calculation.create, Customer.create): a key drawn per
	// attempt only leaves a spare object, so IDEM001 does not apply; the
	// key's other properties (a bare digest) still do.
	inert bool
	// urlParam: the request's URL is fn's parameter urlParam-1: a
	// caller that names a harmless endpoint makes the site inert for
	// its keys.
	urlParam int
}

func (e *engine) index(f *ir.File) {
	fi := &fileInfo{f: f, defs: map[string]*ir.Func{}, methods: map[string]*ir.Func{}, imports: map[string]ir.Import{}}
	fi.tables = e.prog.Model.Lang(f.Lang)
	for _, s := range f.Module.Body {
		if d, ok := s.(*ir.FuncDef); ok {
			fi.defs[d.Name] = d.F
		}
	}
	classes := map[string]*ir.Func{}
	for _, fn := range f.Funcs {
		if fn.IsClass {
			classes[fn.Class] = fn
			e.classFile[fn] = fi
		}
	}
	for _, fn := range f.Funcs {
		if fn.Class != "" && !fn.IsClass {
			fi.methods[fn.Name] = fn
			e.classOf[fn] = classes[fn.Class]
		}
	}
	for _, im := range f.Imports {
		if im.Name == "*" {
			fi.stars = append(fi.stars, im)
			continue
		}
		fi.imports[im.Local] = im
	}
	e.files[f] = fi
}

// moduleEnv evaluates the file's top-level statements once, for the
// values of its globals (clients, constant SQL, helpers bound to names).
func (e *engine) moduleEnv(fi *fileInfo) {
	if fi.globals != nil || fi.busy {
		return
	}
	fi.busy = true
	c := e.newCtx(fi, fi.f.Module, nil)
	c.block(fi.f.Module.Body)
	fi.globals = c.env
	e.lateGlobals(fi)
	fi.busy = false
}

// lateGlobals adds to the module's variables what the file's functions
// store into them: a client made on first use (let stripe: Stripe | null
// = null, then stripe = new Stripe(key) in an init method; Python's
// global stripe_client) is one for every function that reads it. The
// value is what the assignment makes, evaluated at the top level: what
// it builds from the function's own locals is not known there.
func (e *engine) lateGlobals(fi *fileInfo) {
	for _, fn := range fi.f.Funcs {
		if fn == fi.f.Module || fn.IsClass {
			continue
		}
		outer := e.outerNames(fi, fn)
		if len(outer) == 0 {
			continue
		}
		walkStmts(fn.Body, func(s ir.Stmt) {
			a, ok := s.(*ir.Assign)
			if !ok || a.Decl || a.Op != "" && a.Op != "||" && a.Op != "??" {
				return
			}
			if n, ok := a.Target.(*ir.Name); ok && outer[n.ID] {
				fi.globals[n.ID] = merge(fi.globals[n.ID], e.moduleCtx(fi).eval(a.Value))
			}
		})
	}
}

// outerNames are the module variables fn assigns: in Python those it
// declares global, in TypeScript and JavaScript those it neither declares
// nor takes as parameters.
func (e *engine) outerNames(fi *fileInfo, fn *ir.Func) map[string]bool {
	out := map[string]bool{}
	if fi.f.Lang == "python" {
		for _, g := range fn.Globals {
			if _, ok := fi.globals[g]; ok {
				out[g] = true
			}
		}
		return out
	}
	own := e.declaredNames(fi, fn)
	walkStmts(fn.Body, func(s ir.Stmt) {
		if a, ok := s.(*ir.Assign); ok && !a.Decl {
			if n, ok := a.Target.(*ir.Name); ok && !own[n.ID] {
				if _, ok := fi.globals[n.ID]; ok {
					out[n.ID] = true
				}
			}
		}
	})
	return out
}

// declaredNames are the variables fn declares, its own and not a module's
// or an enclosing function's: its parameters, nested functions and the
// names it declares (let, const, var; in Python any name it assigns that
// it does not declare global). Computed once per function.
func (e *engine) declaredNames(fi *fileInfo, fn *ir.Func) map[string]bool {
	if own, ok := e.declared[fn]; ok {
		return own
	}
	python := fi.f.Lang == "python"
	own := map[string]bool{}
	for _, p := range fn.Params {
		own[p] = true
	}
	walkStmts(fn.Body, func(s ir.Stmt) {
		switch s := s.(type) {
		case *ir.Assign:
			if !s.Decl && !(python && s.Op == "") {
				return
			}
			if n, ok := s.Target.(*ir.Name); ok {
				own[n.ID] = true
			} else if pt, ok := s.Target.(*ir.Pattern); ok {
				for _, id := range patternNames(pt) {
					own[id] = true
				}
			}
		case *ir.FuncDef:
			own[s.Name] = true
		}
	})
	for _, g := range fn.Globals {
		delete(own, g)
	}
	if e.declared == nil {
		e.declared = map[*ir.Func]map[string]bool{}
	}
	e.declared[fn] = own
	return own
}

// patternNames are the names a destructuring pattern binds.
func patternNames(p *ir.Pattern) []string {
	var out []string
	add := func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.Name:
			out = append(out, x.ID)
		case *ir.Pattern:
			out = append(out, patternNames(x)...)
		}
	}
	for _, el := range p.Elems {
		add(el)
	}
	for _, kv := range p.Keys {
		add(kv.Value)
	}
	return out
}

// walkStmts calls visit on every statement of body, into the branches of
// ifs, loops and trys but not into nested functions (each is a Func of
// its own).
func walkStmts(body []ir.Stmt, visit func(ir.Stmt)) {
	for _, s := range body {
		visit(s)
		switch s := s.(type) {
		case *ir.If:
			walkStmts(s.Then, visit)
			walkStmts(s.Else, visit)
		case *ir.Loop:
			walkStmts(s.Head, visit)
			walkStmts(s.Body, visit)
		case *ir.Try:
			walkStmts(s.Body, visit)
			walkStmts(s.Handlers, visit)
			walkStmts(s.Finally, visit)
		}
	}
}

func (e *engine) summarize(fi *fileInfo, fn *ir.Func) *summary {
	s := e.sums[fn]
	if s == nil {
		s = &summary{}
		e.sums[fn] = s
	}
	if s.done || s.busy {
		return s // recursion: what is known so far
	}
	s.busy = true
	if fn != fi.f.Module {
		// A caller in a file analyzed earlier summarizes fn first: its
		// module's globals (a client, a constant alphabet) must be known.
		e.moduleEnv(fi)
	}
	c := e.newCtx(fi, fn, nil)
	if fn.Parent != nil && fn.Parent != fi.f.Module {
		c.outer = e.outerEnv(fi, fn.Parent)
	}
	for i, p := range fn.Params {
		v := &value{params: []paramRef{{i: i}}, rooted: true, handedIn: true, consumer: c.entry == "consumer"}
		typ, tv := e.declaredType(fi, fn.ParamTypes[p])
		v.incoming = e.incomingRequest(fi, tv)
		if client := e.sdkInstance(fi, typ, tv); client != nil {
			// Declared an SDK's client (stripe: Stripe): what a caller
			// hands in is one, whether or not the caller is in view.
			client.params, client.rooted, client.consumer = v.params, true, v.consumer
			v = client
		} else if inst := e.projectInstance(fi, tv); inst != nil {
			// Declared of a project class (payments: PaymentService, as
			// dependency injection hands it in): its methods are known.
			v.class, v.classFile, v.mod, v.chain = inst.class, inst.classFile, inst.mod, inst.chain
		} else {
			v.lib = libraryType(tv)
		}
		c.env[p] = v
	}
	if fn.Class != "" {
		var fields map[string]*value
		if !fn.IsClass && !isConstructor(fn) {
			// What the constructor stored on the instance is what the
			// method reads from self or this (self.stripe = stripe,
			// this.client = new Stripe(key)).
			fields = e.instanceFields(fi, fn.Class)
		}
		if self, ok := c.env["self"]; ok && fn.Params[0] == "self" {
			// self.get_auth_header(): a method of the class, called on
			// the receiver.
			self.class, self.classFile = fn.Class, fi.f
			if len(fields) > 0 {
				self.fields = maps.Clone(fields) // the other fields stay paths of the receiver
			}
		}
		if _, ok := c.env["this"]; !ok {
			c.env["this"] = &value{class: fn.Class, fields: maps.Clone(fields)}
		}
	}
	c.block(fn.Body)
	s.result = c.result
	s.sinks = c.sinks
	s.sqlText = c.sqlText
	s.forwards = c.forwards
	for i := range c.wholeParams {
		// Written on the way out at the end and at every return.
		if c.persistedParams[i] && (c.persistedAtReturns == nil || c.persistedAtReturns[i]) {
			s.persists = append(s.persists, i)
		}
	}
	slices.Sort(s.persists)
	for o, stored := range c.returned {
		if stored {
			if s.stored == nil {
				s.stored = map[*origin]bool{}
			}
			s.stored[o] = true
		}
	}
	s.busy, s.done = false, true
	return s
}

// sdkBase is what constructing an external base class of class makes (an
// SDK client: class C extends Stripe), through project classes between;
// nil when no base comes from outside the project. Once per class: every
// construction asks.
func (e *engine) sdkBase(fi *fileInfo, class *ir.Func) *value {
	if v, ok := e.bases[class]; ok {
		return v
	}
	v := e.findSDKBase(fi, class, 0)
	e.bases[class] = v
	return v
}

func (e *engine) findSDKBase(fi *fileInfo, class *ir.Func, depth int) *value {
	if depth > 3 {
		return nil
	}
	for _, b := range class.Bases {
		c := e.moduleCtx(fi)
		bv := c.eval(b)
		if bv.fn != nil && bv.fn.IsClass {
			if tfi := e.fileOf(bv); tfi != nil {
				if v := e.findSDKBase(tfi, bv.fn, depth+1); v != nil {
					return v
				}
			}
		} else if v := sdkClient(c, b, bv); v != nil {
			return v
		}
	}
	return nil
}

// declaredType is a parameter's declared type and its value, evaluated
// once for the questions asked of it; a nil value when none is declared.
func (e *engine) declaredType(fi *fileInfo, typ ir.Expr) (ir.Expr, *value) {
	if typ == nil {
		return nil, nil
	}
	return typ, e.moduleCtx(fi).eval(typ)
}

// sdkInstance is an instance of the class typ names (tv its value) when
// that class is an acting SDK's (a parameter declared stripe: Stripe);
// nil otherwise.
func (e *engine) sdkInstance(fi *fileInfo, typ ir.Expr, tv *value) *value {
	if tv == nil {
		return nil
	}
	return sdkClient(e.moduleCtx(fi), typ, tv)
}

// projectInstance is an instance of the project class a declared type's
// value v names (its class, and the SDK client it extends, if any: class
// YooKassa(BaseYooKassa)); nil when the type is no project class.
func (e *engine) projectInstance(fi *fileInfo, v *value) *value {
	if v == nil || v.fn == nil || !v.fn.IsClass {
		return nil
	}
	cfi := e.fileOf(v)
	if cfi == nil {
		cfi = fi
	}
	inst := &value{class: v.fn.Class, classFile: cfi.f}
	if sdk := e.sdkBase(cfi, v.fn); sdk != nil {
		inst.mod, inst.chain = sdk.mod, sdk.chain
	}
	return inst
}

// incomingRequest reports a declared type (its value v) that is an HTTP server's
// incoming request (the language's Requests: express's Request).
func (e *engine) incomingRequest(fi *fileInfo, v *value) bool {
	if v == nil || v.mod == "" {
		return false
	}
	for _, p := range fi.tables.Requests {
		if normModule(p.Package) == v.mod && p.FunctionPattern() != nil && p.FunctionPattern().MatchString(v.chain) {
			return true
		}
	}
	return false
}

// sdkClient is what constructing the class x names makes, when x's value
// xv is an acting SDK's class; nil otherwise.
func sdkClient(c *ctx, x ir.Expr, xv *value) *value {
	if !actingSDK(c.fi.tables, xv.mod) {
		return nil
	}
	if v := c.eval(&ir.Call{Fun: x, New: true, Pos: ir.PosOf(x)}); v.mod != "" {
		return v
	}
	return nil
}

// moduleCtx evaluates expressions at fi's top level without reporting:
// what a class's base or a parameter's declared type names.
func (e *engine) moduleCtx(fi *fileInfo) *ctx {
	c := e.newCtx(fi, fi.f.Module, nil)
	c.quiet = true
	return c
}

// actingSDK reports a module whose operations move money (stripe): a class
// extending one of its classes is its client. Frameworks' base classes
// (a Django model, a pydantic model) are not.
func actingSDK(t keymodel.Tables, mod string) bool {
	if mod == "" {
		return false
	}
	for _, p := range t.Operations {
		if p.Package == mod && keymodel.Acts(p.Kind) {
			return true
		}
	}
	return false
}

// callSite is where a call is written.
type callSite struct {
	file string
	pos  ir.Pos
}

// resolvedCall records a call site that resolved to fn.
func (e *engine) resolvedCall(fn *ir.Func, file string, p ir.Pos) {
	name := methodName(fn)
	if e.resolved == nil {
		e.resolved = map[string]map[callSite]bool{}
	}
	if e.resolved[name] == nil {
		e.resolved[name] = map[callSite]bool{}
	}
	e.resolved[name][callSite{file, p}] = true
}

// classRef names a class by the file that defines it.
type classRef struct {
	f     *ir.File
	class string
}

// isConstructor reports Python's __init__ and a TypeScript constructor.
func isConstructor(fn *ir.Func) bool {
	return strings.HasSuffix(fn.Name, ".__init__") || strings.HasSuffix(fn.Name, ".constructor")
}

// instanceFields are the fields a class's constructor stores on the new
// instance (self.x = …, this.x = …), as it leaves them; nil when the
// class has no constructor in view. The constructor's parameters are
// unknown here: a method sees the fields whoever constructed it.
func (e *engine) instanceFields(fi *fileInfo, class string) map[string]*value {
	ref := classRef{fi.f, class}
	if fs, ok := e.instance[ref]; ok {
		return fs // nil while it is being computed
	}
	e.instance[ref] = nil
	ctor := fi.constructorOf(class)
	if ctor == nil {
		// No constructor of its own: the first base's, inherited
		// (class OrderRepository(BaseRepository) holds self.session).
		bfi, base := e.firstProjectBase(fi, class)
		if base == nil {
			return nil
		}
		fs := e.instanceFields(bfi, base.Class)
		e.instance[ref] = fs
		e.ctorArgs[ref] = e.ctorArgs[classRef{bfi.f, base.Class}]
		e.instanceLibs[ref] = e.instanceLibs[classRef{bfi.f, base.Class}]
		return fs
	}
	c := e.newCtx(fi, ctor, nil)
	c.quiet = true
	for i, p := range ctor.Params {
		c.env[p] = &value{params: []paramRef{{i: i}}, rooted: true}
		_, tv := e.declaredType(fi, ctor.ParamTypes[p])
		if inst := e.projectInstance(fi, tv); inst != nil {
			c.env[p].class, c.env[p].classFile, c.env[p].mod, c.env[p].chain = inst.class, inst.classFile, inst.mod, inst.chain
		} else {
			c.env[p].lib = libraryType(tv)
		}
	}
	self := &value{class: class, fields: map[string]*value{}}
	if len(ctor.Params) > 0 && ctor.Params[0] == "self" {
		c.env["self"] = self
	}
	c.env["this"] = self
	c.block(ctor.Body)
	var fs map[string]*value
	args := map[string]int{}
	for _, name := range []string{"self", "this"} {
		v := c.env[name]
		if v == nil {
			continue
		}
		for k, f := range v.fields {
			if isParam(f) && len(f.params) == 1 && f.params[0].path == "" {
				args[k] = f.params[0].i // self.document = document
				if f.lib != "" {
					if e.instanceLibs[ref] == nil {
						e.instanceLibs[ref] = map[string]string{}
					}
					e.instanceLibs[ref][k] = f.lib // self.session = session: AsyncSession
				}
			}
			if known := knownField(f); known != nil {
				if fs == nil {
					fs = map[string]*value{}
				}
				fs[k] = known
			}
		}
	}
	fs = e.declaredFields(fi, class, fs)
	e.instance[ref] = fs
	e.ctorArgs[ref] = args
	return fs
}

// declaredFields fills in the fields the constructor leaves unknown (set
// from an options object, an untyped parameter) whose declaration names a
// project class or an SDK client: an instance of it, whose methods are
// followed.
func (e *engine) declaredFields(fi *fileInfo, class string, fs map[string]*value) map[string]*value {
	for _, fn := range fi.f.Funcs {
		if !fn.IsClass || fn.Class != class {
			continue
		}
		for name, t := range fn.FieldTypes {
			if cur := fs[name]; cur != nil && (cur.class != "" || cur.mod != "" || cur.fn != nil) {
				continue
			}
			typ, tv := e.declaredType(fi, t)
			inst := e.projectInstance(fi, tv)
			if inst == nil {
				inst = e.sdkInstance(fi, typ, tv)
			}
			if inst == nil {
				continue
			}
			if fs == nil {
				fs = map[string]*value{}
			}
			fs[name] = inst
		}
	}
	return fs
}

// firstProjectBase is the first base of class (declared in fi) that is
// a project class, and the file declaring it; nil when there is none.
func (e *engine) firstProjectBase(fi *fileInfo, class string) (*fileInfo, *ir.Func) {
	for _, fn := range fi.f.Funcs {
		if !fn.IsClass || fn.Class != class {
			continue
		}
		for _, b := range fn.Bases {
			if bfi, base := e.baseClass(fi, fn, b); base != nil {
				return bfi, base
			}
		}
	}
	return nil, nil
}

// baseClass is the project class that base b of class names, and the file
// declaring it; nil when b is a library's class or class itself.
func (e *engine) baseClass(fi *fileInfo, class *ir.Func, b ir.Expr) (*fileInfo, *ir.Func) {
	bv := e.moduleCtx(fi).eval(b)
	if bv.fn == nil || !bv.fn.IsClass || bv.fn == class {
		return nil, nil
	}
	if bfi := e.fileOf(bv); bfi != nil {
		return bfi, bv.fn
	}
	return fi, bv.fn
}

// constructor is class's constructor, its own or the one it inherits from
// its first project base; nil when it has none.
func (e *engine) constructor(fi *fileInfo, class string, depth int) *ir.Func {
	if ctor := fi.constructorOf(class); ctor != nil || depth > 8 {
		return ctor
	}
	if bfi, base := e.firstProjectBase(fi, class); base != nil {
		return e.constructor(bfi, base.Class, depth+1)
	}
	return nil
}

// constructorOf is class's constructor in this file (__init__,
// constructor), or nil.
func (fi *fileInfo) constructorOf(class string) *ir.Func {
	if ctor := fi.methods[class+".__init__"]; ctor != nil {
		return ctor
	}
	return fi.methods[class+".constructor"]
}

// constructorArgs are the fields a class's constructor sets to one of its
// parameters as it is (self.document = document), by parameter index.
func (e *engine) constructorArgs(fi *fileInfo, class string) map[string]int {
	e.instanceFields(fi, class)
	return e.ctorArgs[classRef{fi.f, class}]
}

// handlerTable reports a dict or object literal of project functions
// ({"charge_user": self.charge_user}): a table of handlers.
func handlerTable(v *value) bool {
	if v == nil || !v.local || len(v.fields) == 0 {
		return false
	}
	for _, f := range v.fields {
		if f == nil || f.fn == nil {
			return false
		}
	}
	return true
}

// markStored returns v with the origins in stored replaced by their
// stored copies, one per origin so that every caller sees the same: the
// origin itself stays as it is for the callee's other callers
// (new_key() is drawn anew where no one writes it).
func (e *engine) markStored(v *value, stored map[*origin]bool, depth int) *value {
	if v == nil || depth > 4 {
		return v
	}
	out := *v
	out.origins = nil
	for _, o := range v.origins {
		if stored[o] {
			cp := e.storedCopies[o]
			if cp == nil {
				c := *o
				c.stored = true
				cp = &c
				e.storedCopies[o] = cp
			}
			o = cp
		}
		out.origins = append(out.origins, o)
	}
	if v.fields != nil {
		out.fields = make(map[string]*value, len(v.fields))
		for k, f := range v.fields {
			out.fields[k] = e.markStored(f, stored, depth+1)
		}
	}
	return &out
}

// libraryType is the library a declared type's value tv comes from
// (db: admin.firestore.Firestore, session: AsyncSession): the reads and
// writes its methods make are that library's. "" for no library's type.
func libraryType(tv *value) string {
	if tv == nil || tv.mod == "" || tv.mod == "globalThis" || tv.mod == "builtins" {
		return ""
	}
	return tv.mod
}

// knownField is what a method can know of a field the constructor
// stored: a module or SDK client, a project function or object, a
// per-attempt origin, a stable or constant value. A field made only of the
// constructor's arguments is nil: the method reads it as a field of its
// receiver, which a call binds.
// (A constructor's argument of a library's declared type stays the
// receiver's field too: instanceLibs keeps its library.)
func knownField(f *value) *value {
	if f == nil || f.mod == "" && !f.isMod && f.fn == nil && f.class == "" && len(f.origins) == 0 && !f.stable && !f.hasStr && !handlerTable(f) {
		return nil
	}
	cp := *f
	cp.params = nil
	return &cp
}

// outerEnv is the environment a nested function sees: its enclosing
// function's variables as they are at the end of that function.
func (e *engine) outerEnv(fi *fileInfo, parent *ir.Func) map[string]*value {
	if parent.IsClass {
		return nil
	}
	if env, ok := e.outer[parent]; ok {
		return env // nil while it is being computed: a callback the parent calls
	}
	e.outer[parent] = nil
	c := e.newCtx(fi, parent, nil)
	c.quiet = true
	for i, p := range parent.Params {
		c.env[p] = &value{rooted: true, handedIn: true, consumer: c.entry == "consumer", outerParam: i + 1}
	}
	c.block(parent.Body)
	e.outer[parent] = c.env
	return c.env
}

func (e *engine) newCtx(fi *fileInfo, fn *ir.Func, outer map[string]*value) *ctx {
	return &ctx{e: e, fi: fi, fn: fn, env: map[string]*value{}, persisted: map[*origin]bool{}, persistedParams: map[int]bool{}, outer: outer, entry: e.entryOf(fn)}
}

// entryOf is how fn is invoked: "route", "consumer", "script" (a command
// run by hand), or "" (unknown: a helper, a job, a script). A nested function inherits its parent's.
func (e *engine) entryOf(fn *ir.Func) string {
	for f := fn; f != nil; f = f.Parent {
		if k, ok := e.entry[f]; ok {
			return k
		}
	}
	return ""
}

// report records a finding once per rule, position and message; a
// repeat adds its related positions to the first.
func (e *engine) report(rule, file string, p ir.Pos, msg string, related []report.Related) {
	k := fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%s", rule, file, p.Line, p.Col, msg)
	if i, seen := e.seen[k]; seen {
		// The same key reached from another caller: its path is the
		// caller's to fix too (each checkout handler that draws one).
		for _, r := range related {
			if !slices.Contains(e.findings[i].Related, r) {
				e.findings[i].Related = append(e.findings[i].Related, r)
			}
		}
		return
	}
	e.seen[k] = len(e.findings)
	e.findings = append(e.findings, report.Finding{Rule: rule, File: file, Line: p.Line, Column: p.Col, Message: msg, Related: related})
}

// suppress drops findings covered by an idemcheck:ignore directive with a
// reason on their line or the line above; a directive without a reason is
// itself reported.
func (e *engine) suppress(fs []report.Finding) []report.Finding {
	ignores := map[string][]ir.Ignore{}
	for _, f := range e.prog.Files {
		ignores[f.Path] = f.Ignores
		for _, ig := range f.Ignores {
			if ig.Reason == "" {
				rule := "IDEM001"
				if len(ig.Rules) > 0 && ig.Rules[0] != "ALL" {
					rule = ig.Rules[0]
				}
				fs = append(fs, report.Finding{Rule: rule, File: f.Path, Line: ig.Line, Column: 1, Message: "idemcheck:ignore needs a reason after the rule IDs; this directive suppresses nothing"})
			}
		}
	}
	out := fs[:0]
	for _, f := range fs {
		if !covered(ignores[f.File], f) {
			out = append(out, f)
		}
	}
	return out
}

func covered(igs []ir.Ignore, f report.Finding) bool {
	for _, ig := range igs {
		if ig.Reason == "" || (ig.Line != f.Line && ig.Line != f.Line-1) {
			continue
		}
		for _, r := range ig.Rules {
			if r == "ALL" || r == f.Rule {
				return true
			}
		}
	}
	return false
}

// normModule spells a module the way the tables do: node:crypto is
// crypto, a deep import of a package (uuid/v4) is still that package for
// scoped names kept whole.
func normModule(m string) string {
	m = strings.TrimPrefix(m, "node:")
	// Deno's specifiers name npm packages too: npm:stripe@14,
	// https://esm.sh/stripe@14.21.0?target=deno.
	for _, cdn := range []string{"npm:", "https://esm.sh/", "https://cdn.skypack.dev/", "https://esm.run/", "https://cdn.jsdelivr.net/npm/", "https://unpkg.com/"} {
		if rest, ok := strings.CutPrefix(m, cdn); ok {
			return npmPackagePath(rest)
		}
	}
	return m
}

// npmPackagePath is a package specifier without its version and query:
// stripe@14.21.0?target=deno is stripe, @supabase/supabase-js@2/dist/x is
// @supabase/supabase-js/dist/x.
func npmPackagePath(spec string) string {
	if i := strings.IndexAny(spec, "?#"); i >= 0 {
		spec = spec[:i]
	}
	parts := strings.Split(spec, "/")
	name := 0
	if strings.HasPrefix(spec, "@") && len(parts) > 1 {
		name = 1
	}
	if i := strings.Index(parts[name], "@"); i > 0 {
		parts[name] = parts[name][:i]
	}
	return strings.TrimSuffix(strings.Join(parts, "/"), "/")
}

// display names a file for messages.
func display(path string) string { return filepath.ToSlash(path) }
