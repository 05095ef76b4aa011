package flow

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

// IDEM002 for Python and TypeScript: an SDK call that acts (the
// language's Operations of a kind keymodel.Acts: a Stripe create that
// moves money or bills, a refund) made without
// an idempotency key, on a path that can run it again. The SDK then
// draws a key per call for its own network retries, so a redelivery
// makes a new call with a new key and the provider acts again. The same
// meaning as the Go rule: reported where a broker delivery, a queued job
// or a webhook reaches the call, or where the function's callers are out
// of view; not where only an HTTP route or a script reaches it.

// keylessWrite is an acting SDK call without an idempotency key.
type keylessWrite struct {
	fn   *ir.Func
	file string
	lang string // the file's: the fix is said in its SDK's terms
	pos  ir.Pos
	call string // "stripe.Refund.create"
	kind string // the operation kind: create, charge, refund
}

// keyFromCaller is an acting SDK call whose key is a parameter of its
// function (createPaymentIntent({…, idempotencyKey})): a caller that
// passes none makes the call without a key.
type keyFromCaller struct {
	params []paramRef // where the key comes from
	call   string
	kind   string
}

// sdkWrite records an acting SDK call that carries no idempotency key,
// or one whose key its callers give.
func (c *ctx) sdkWrite(x *ir.Call, kind string, args, kwargs []*value) {
	if c.quiet {
		return
	}
	keyed, fromParams := c.carriesKey(x, args, kwargs)
	switch {
	case keyed:
	case len(fromParams) > 0:
		c.e.keyFromCaller[c.fn] = append(c.e.keyFromCaller[c.fn], keyFromCaller{params: fromParams, call: exprText(x.Fun), kind: kind})
	default:
		c.e.keyless = append(c.e.keyless, keylessWrite{fn: c.fn, file: c.file(), lang: c.fi.f.Lang, pos: x.Pos, call: exprText(x.Fun), kind: kind})
	}
}

// carriesKey reports whether the call may pass an idempotency key: a
// keyword argument or an options field named like a key, or an argument
// it cannot see into (a spread, options handed in), which is given the
// benefit of the doubt. A key that is only a parameter of the function
// is returned as those parameters: whether there is one is the caller's.
func (c *ctx) carriesKey(x *ir.Call, args, kwargs []*value) (bool, []paramRef) {
	m := c.e.prog.Model
	var fromParams []paramRef
	key := func(v *value) bool {
		if isParam(v) {
			fromParams = append(fromParams, v.params...)
			return false
		}
		return true
	}
	for i, kv := range x.Kwargs {
		switch {
		case kv.Key == "**":
			// create(**kwargs): a dict built here is seen into, as
			// options are; anything else gets the benefit of the doubt.
			if !seenInto(kwargs[i]) {
				return true, nil
			}
			if f := keyField(m.IsKey, kwargs[i], 0); f != nil && key(f) {
				return true, nil
			}
		case m.IsKey(kv.Key):
			if key(kwargs[i]) {
				return true, nil
			}
		case kv.Key == "options" || kv.Key == "opts" || kv.Key == "request_options":
			if !seenInto(kwargs[i]) {
				return true, nil
			}
			if f := keyField(m.IsKey, kwargs[i], 0); f != nil && key(f) {
				return true, nil
			}
		default:
			// headers={"Idempotency-Key": key} (gocardless_pro): a
			// key-named member of a keyword argument.
			if f := keyField(m.IsKey, kwargs[i], 0); f != nil && key(f) {
				return true, nil
			}
		}
	}
	for i, a := range args {
		f := keyField(m.IsKey, a, 0)
		if f != nil && key(f) {
			return true, nil
		}
		// The first argument is the params or the object's id; the
		// options, where the key goes, come after it.
		if i > 0 && f == nil && !seenInto(a) && !a.hasStr {
			return true, nil
		}
	}
	return false, fromParams
}

// isParam reports a value that is a parameter (or a field of one) as
// handed in: not a string built from it, a digest of it, or anything the
// function drew. A key computed from parameters exists whatever the
// caller passes.
func isParam(v *value) bool {
	return v != nil && len(v.params) > 0 && len(v.origins) == 0 && !v.stable && !v.hasStr &&
		!v.computed && v.digest == "" && v.payload == ""
}

// callerOmitsKey records the calls that reach an acting SDK call through
// fn, whose key is fn's parameter, without giving one: the argument is
// an object built here that has no such field.
func (c *ctx) callerOmitsKey(x *ir.Call, fn *ir.Func, bound []*value) {
	if c.quiet {
		return
	}
	for _, kv := range x.Kwargs {
		if kv.Key == "**" {
			return // arguments it cannot see
		}
	}
	for _, k := range c.e.keyFromCaller[fn] {
		omitted := len(k.params) > 0
		for _, p := range k.params {
			if p.i >= len(bound) || !absent(bound[p.i], p.path) {
				omitted = false
			}
		}
		if omitted {
			c.e.keyless = append(c.e.keyless, keylessWrite{fn: c.fn, file: c.file(), lang: c.fi.f.Lang, pos: x.Pos, call: k.call + " (through " + shortName(fn) + ", given no key here)", kind: k.kind})
		}
	}
}

// absent reports whether path is certainly missing from v: an object
// built here, with no such field.
func absent(v *value, path string) bool {
	if v == nil {
		return true
	}
	if path == "" {
		return false
	}
	seg, rest, _ := strings.Cut(path, ".")
	if !v.local {
		return false
	}
	f, ok := v.fields[seg]
	if !ok {
		return true
	}
	return rest != "" && absent(f, rest)
}

// seenInto reports a value whose fields are all known here: an object or
// dict literal built in the project.
func seenInto(v *value) bool { return v != nil && v.local }

// keyField returns the value of v's field named like a key, searching
// nested objects, or nil.
func keyField(isKey func(string) bool, v *value, depth int) *value {
	if v == nil || depth > 2 {
		return nil
	}
	for k, f := range v.fields {
		if isKey(k) {
			return f
		}
		if g := keyField(isKey, f, depth+1); g != nil {
			return g
		}
	}
	return nil
}

// reportKeylessWrites reports the keyless acting calls on paths that can
// run again, once every function's callers are known.
func (e *engine) reportKeylessWrites() {
	memo := map[*ir.Func]bool{}
	for _, w := range e.keyless {
		if !e.mayRepeat(w.fn, memo, map[*ir.Func]bool{}) {
			continue
		}
		fix := "pass idempotency_key= (or options={\"idempotency_key\": …}) derived from the frozen intent"
		if w.lang == "typescript" {
			fix = "pass { idempotencyKey } in the request options, derived from the frozen intent"
		}
		msg := fmt.Sprintf("%s is called without an idempotency key: the SDK then draws a new key per call, so a redelivery %s; %s", w.call, keymodel.Repeats(w.kind), fix)
		e.report("IDEM002", w.file, w.pos, msg, nil)
	}
}

// mayRepeat reports whether fn can run again for the same intent: a
// consumer, a webhook route, code one of them calls, or a function whose
// callers are out of view (none in the project calls it, and no
// framework registration names it). An HTTP route and the top level of a
// module (a script) do not: stripe's own key covers the SDK's retries,
// and nothing redelivers their input.
func (e *engine) mayRepeat(fn *ir.Func, memo, visiting map[*ir.Func]bool) bool {
	return e.runsAgain(fn, memo, visiting, true)
}

// redelivered reports whether fn runs again because its input comes
// again: a consumer, a job, a webhook's receiver, or code one of them
// calls. Unlike mayRepeat, a function whose callers are out of view does
// not: nothing says what runs it.
func (e *engine) redelivered(fn *ir.Func, memo, visiting map[*ir.Func]bool) bool {
	return e.runsAgain(fn, memo, visiting, false)
}

// runsAgain is mayRepeat, or redelivered when outOfView is false; memo
// holds the answers of one of them only.
func (e *engine) runsAgain(fn *ir.Func, memo, visiting map[*ir.Func]bool, outOfView bool) bool {
	return memoized(fn, memo, visiting, func() bool { return e.repeats(fn, memo, visiting, outOfView) })
}

// receivesWebhook reports whether fn runs on a webhook's delivery: it
// checks the signature, or it calls a project function that does (a route
// that first calls verifyStripeEvent(req) is the webhook's receiver, and
// its sender retries it until it answers 2xx). Two calls up at most: a
// verifier is called by the route or by the route's own handler.
func (e *engine) receivesWebhook(fn *ir.Func) bool {
	if e.receivers == nil {
		e.receivers = map[*ir.Func]bool{}
		level := slices.Collect(maps.Keys(e.webhook))
		for range 3 {
			var next []*ir.Func
			for _, f := range level {
				if e.receivers[f] || f.Name == "<module>" || f.IsClass {
					// A module's top level registers its routes: it
					// receives no request itself, and every function in
					// its file would count as its code.
					continue
				}
				e.receivers[f] = true
				next = append(next, e.callers[f]...)
			}
			level = next
		}
	}
	return e.receivers[fn]
}

// memoized is compute's answer for fn, once; false for a function already
// being asked about (a cycle of callers adds nothing).
func memoized(fn *ir.Func, memo, visiting map[*ir.Func]bool, compute func() bool) bool {
	if r, ok := memo[fn]; ok {
		return r
	}
	if visiting[fn] {
		return false
	}
	visiting[fn] = true
	r := compute()
	memo[fn] = r
	return r
}

// callersOf is who calls fn: by name, or, for a method nothing calls by
// name, through an instance (instanceCallers).
func (e *engine) callersOf(fn *ir.Func) []*ir.Func {
	callers := e.callers[fn]
	if len(callers) == 0 && fn.Class != "" && !fn.IsClass {
		callers = e.instanceCallers(fn)
	}
	return slices.Concat(callers, e.baseDeclarationCallers(fn))
}

// baseDeclarationCallers is who calls, by a resolved call, the method of
// fn's name that a project base of fn's class declares: a route calls
// buy on a parameter typed SubscriptionServiceABC, which dispatches to
// the SubscriptionService.buy that overrides it.
func (e *engine) baseDeclarationCallers(fn *ir.Func) []*ir.Func {
	class := e.classOf[fn]
	if class == nil || fn.IsClass {
		return nil
	}
	var out []*ir.Func
	bases := e.classFamily(class)
	for _, g := range e.definedAs(methodName(fn)) {
		if g != fn && e.classOf[g] != class && bases[e.classOf[g]] {
			out = append(out, e.callers[g]...)
		}
	}
	return out
}

func (e *engine) repeats(fn *ir.Func, memo, visiting map[*ir.Func]bool, outOfView bool) bool {
	for f := fn; f != nil; f = f.Parent {
		if e.receivesWebhook(f) {
			return true
		}
	}
	switch e.entryOf(fn) {
	case "consumer":
		return true
	case "route":
		return false
	case "script":
		// Run by hand, unless the command's own consumer runs it (a
		// broker loop in a management command hands each message to a
		// thread or a table of handlers).
		for _, h := range slices.Concat(e.callers[fn], e.handedTo[fn]) {
			if e.runsAgain(h, memo, visiting, outOfView) {
				return true
			}
		}
		return false
	}
	if fn.Name == "<module>" {
		return false
	}
	// A function only handed to a library (a scheduler's add_job, a
	// thread) keeps its callers out of view: the library may run it
	// again whoever handed it.
	callers := e.callersOf(fn)
	if len(callers) == 0 {
		if fn.Parent != nil && fn.Parent.Name != "<module>" && !fn.Parent.IsClass {
			// A closure nobody here calls by name (a callback handed to
			// a library): it runs when its parent does. (A method's
			// parent is its class, whose construction says nothing of
			// who calls the method.)
			return e.runsAgain(fn.Parent, memo, visiting, outOfView)
		}
		if e.unmentioned(fn) {
			return false // dead code: nothing here or elsewhere can run it
		}
		return outOfView // out of view
	}
	for _, caller := range callers {
		if e.runsAgain(caller, memo, visiting, outOfView) {
			return true
		}
	}
	return false
}

// unmentioned reports a method that nothing can call: in a program that
// registers handlers (an application, not a library whose callers are its
// users), an undecorated method of a class of the project's own (no base
// a framework or library gives, which could call it by convention), or a
// method of an object literal, whose name no source file mentions but
// where it is defined. Such a method is dead code, not one whose callers
// are out of view.
func (e *engine) unmentioned(fn *ir.Func) bool {
	if f := e.topLevelFile(fn); f != nil && f.Lang == "typescript" && !fn.IsClass {
		if fn.Exported {
			return e.deadExport(f, fn)
		}
		// A module's function that it does not export only its own file
		// can call or hand on, in an application or a library alike.
		return e.onlyDefinedIn(f, e.declaredName(fn))
	}
	if fn.Member {
		return len(e.entry) > 0 && e.onlyDefined(fn.Name)
	}
	class := e.classOf[fn]
	if fn.Private && class != nil && e.classFile[class] != nil {
		// Only the class's own body can call it, in its own file, in an
		// application or a library alike.
		return e.onlyDefinedIn(e.classFile[class].f, methodName(fn))
	}
	if fn.Class == "" || class == nil || len(fn.Decorators) > 0 || len(e.entry) == 0 {
		return false
	}
	if e.classFile[class] != nil && e.unimportedModule(e.classFile[class].f) {
		return true // the class's module is never loaded
	}
	c := e.moduleCtx(e.classFile[class])
	for _, b := range class.Bases {
		if bv := c.eval(b); bv.fn == nil || !bv.fn.IsClass {
			return false // a library's class may call it by convention
		}
	}
	return e.onlyDefined(methodName(fn))
}

// onlyDefined reports a name the program's source mentions only where
// functions or methods of that name are defined or called as another
// function of that name: two services' methods of one name that nothing
// calls are both dead.
//
// Calls that resolved to a function of that name are not counted: a
// function with callers is never asked, so they are another's
// (PaymentService.createRefund(…) says nothing of TeacherPaymentService's
// createRefund).
func (e *engine) onlyDefined(name string) bool {
	return e.nameUses(name) <= e.definedCount(name)+len(e.resolved[name])
}

// definedCount is how many functions and methods of the program have
// name.
func (e *engine) definedCount(name string) int {
	return len(e.definedAs(name))
}

// definedAs is the functions and methods named name, indexed once.
func (e *engine) definedAs(name string) []*ir.Func {
	if e.defined == nil {
		e.defined = map[string][]*ir.Func{}
		for _, f := range e.prog.Files {
			for _, fn := range f.Funcs {
				if !fn.IsClass && fn != f.Module {
					e.defined[methodName(fn)] = append(e.defined[methodName(fn)], fn)
				}
			}
		}
	}
	return e.defined[name]
}

// deadExport reports a function a module of an application exports and
// no module of the project imports. Nothing outside an application
// imports its modules; a framework calls only its convention files
// (routes, pages, hooks, middleware), which are left out, and a program
// runs its entry file, whose exports its own file would have to name.
// The function's own file never names it again.
func (e *engine) deadExport(f *ir.File, fn *ir.Func) bool {
	kind := e.packageKind(f.Path)
	name := e.declaredName(fn)
	if !kind.application() || kind.framework && conventionFile(f.Path) || e.importedFrom(f, name) {
		return false
	}
	if !kind.framework && !e.hasImporter(f) {
		// In a program, a file no module imports is an entry of its own
		// (a Lambda handler, a script the deployment runs by its path):
		// what it exports is called from out of view.
		return false
	}
	return e.onlyDefinedIn(f, name)
}

// hasImporter reports whether any module imports, requires or re-exports f.
func (e *engine) hasImporter(f *ir.File) bool {
	if e.importedNames == nil {
		e.indexImports()
	}
	return len(e.importedNames[f]) > 0 || len(e.wholeImporters[f]) > 0 || len(e.starExporters[f]) > 0 || len(e.namedExporters[f]) > 0
}

// unimportedModule reports a TypeScript or JavaScript module of an
// application that no module imports, re-exports or requires and whose
// top level runs nothing but declarations (export const svc = new
// Service()): its classes' methods cannot run. A module whose top level
// calls something is an entry the program or a script runs.
func (e *engine) unimportedModule(f *ir.File) bool {
	if f.Lang != "typescript" || !e.packageKind(f.Path).application() {
		return false
	}
	if e.packageKind(f.Path).framework && conventionFile(f.Path) {
		return false
	}
	if e.hasImporter(f) {
		return false
	}
	for _, s := range f.Module.Body {
		if _, ok := s.(*ir.ExprStmt); ok {
			return false // app.listen(…), main(): an entry the program runs
		}
	}
	return !e.loadsByPath(f.Path)
}

// pathLoaders are the names of what loads modules by their path, not by
// an import: a directory read, a glob, an autoloader. A package whose
// source names one may run a module nothing imports.
var pathLoaders = []string{"readdirSync", "readdir", "glob", "globSync", "autoload", "AutoLoad", "requireDirectory", "requireAll", "loadModules"}

// loadsByPath reports whether any module of the package that holds path
// (below its package.json) names a path loader.
func (e *engine) loadsByPath(path string) bool {
	root := e.packageRoot(path)
	if root == "" {
		return true
	}
	if loads, ok := e.pathLoading[root]; ok {
		return loads
	}
	loads := false
	for _, g := range e.prog.Files {
		abs, err := filepath.Abs(g.Path)
		if err != nil || !strings.HasPrefix(abs, root+string(filepath.Separator)) {
			continue
		}
		words := e.fileWords(g)
		for _, name := range pathLoaders {
			if words[name] > 0 {
				loads = true
			}
		}
	}
	if e.pathLoading == nil {
		e.pathLoading = map[string]bool{}
	}
	e.pathLoading[root] = loads
	return loads
}

// packageRoot is the directory of the nearest package.json above path,
// or "".
func (e *engine) packageRoot(path string) string { return e.nearestPackage(path).root }

// importedFrom reports whether another module imports name from f, binds
// the whole module to a name (a namespace, require, a dynamic import) and
// writes name somewhere, or imports its default export, whose value this
// engine does not follow.
// A barrel that re-exports all of f (export * from './client') passes on
// what is imported from it.
func (e *engine) importedFrom(f *ir.File, name string) bool {
	return e.importedThrough(f, name, 0)
}

func (e *engine) importedThrough(f *ir.File, name string, depth int) bool {
	if e.importedNames == nil {
		e.indexImports()
	}
	names := e.importedNames[f]
	if names[name] || names["default"] || depth > 4 {
		return true
	}
	for _, g := range e.wholeImporters[f] {
		// import * as utils, require, import(): the importer reaches a
		// member by its name (utils.chargeCard), so one that never writes
		// the name never calls it; without the source, any member may be.
		if e.prog.Source == nil || e.fileWords(g)[name] > 0 {
			return true
		}
	}
	for _, barrel := range e.starExporters[f] {
		if e.importedThrough(barrel, name, depth+1) {
			return true
		}
	}
	for _, re := range e.namedExporters[f] {
		if re.name == name && e.importedThrough(re.barrel, re.as, depth+1) {
			return true
		}
	}
	return false
}

// namedReexport is a barrel's export { name as as } from a file.
type namedReexport struct {
	barrel   *ir.File
	name, as string
}

// indexImports records, for each project file, the names other files
// import from it and use, and the files that re-export all of it.
func (e *engine) indexImports() {
	e.importedNames = map[*ir.File]map[string]bool{}
	e.starExporters = map[*ir.File][]*ir.File{}
	e.namedExporters = map[*ir.File][]namedReexport{}
	e.wholeImporters = map[*ir.File][]*ir.File{}
	for _, g := range e.prog.Files {
		for _, im := range g.Imports {
			target := e.prog.Resolve(g, im.Module)
			if target == nil || target == g {
				continue
			}
			if im.Name == "*" {
				e.starExporters[target] = append(e.starExporters[target], g)
				continue
			}
			if im.Reexport && im.Name != "" && im.Name != "default" && g.Lang == "typescript" {
				// export { a as b } from: a is imported when b is imported
				// from the barrel.
				e.namedExporters[target] = append(e.namedExporters[target], namedReexport{barrel: g, name: im.Name, as: im.Local})
				continue
			}
			if im.Name != "" && im.Name != "default" && !im.Reexport && e.prog.Source != nil && e.fileWords(g)[im.Local] < 2 {
				// Imported and never named again: an unused import
				// calls nothing.
				continue
			}
			if im.Name == "" {
				e.wholeImporters[target] = append(e.wholeImporters[target], g)
				continue
			}
			if e.importedNames[target] == nil {
				e.importedNames[target] = map[string]bool{}
			}
			e.importedNames[target][im.Name] = true
		}
	}
}

// topLevelFile is the file whose top level declares fn, also as an arrow
// function or function expression bound to a const (export const pay =
// async () => …); nil for a method, a nested function or another lambda.
func (e *engine) topLevelFile(fn *ir.Func) *ir.File {
	if e.topLevel == nil {
		e.topLevel = map[*ir.Func]*ir.File{}
		e.boundNames = map[*ir.Func]string{}
		for _, f := range e.prog.Files {
			for _, s := range f.Module.Body {
				switch d := s.(type) {
				case *ir.FuncDef:
					e.topLevel[d.F] = f
				case *ir.Assign:
					n, named := d.Target.(*ir.Name)
					lam, isLambda := d.Value.(*ir.Lambda)
					if d.Decl && named && isLambda && f.Lang == "typescript" {
						e.topLevel[lam.F] = f
						e.boundNames[lam.F] = n.ID
					}
				}
			}
		}
	}
	return e.topLevel[fn]
}

// declaredName is the name fn is declared under: its own, or the const a
// top-level arrow function is bound to.
func (e *engine) declaredName(fn *ir.Func) string {
	e.topLevelFile(fn) // builds boundNames
	if n, ok := e.boundNames[fn]; ok {
		return n
	}
	return fn.Name
}

// onlyDefinedIn is onlyDefined within one file.
func (e *engine) onlyDefinedIn(f *ir.File, name string) bool {
	if e.prog.Source == nil {
		return false
	}
	words := e.fileWords(f)
	defined := 0
	for _, fn := range f.Funcs {
		if !fn.IsClass && fn != f.Module && (methodName(fn) == name || e.boundNames[fn] == name) {
			defined++
		}
	}
	return words[name] <= defined
}

// nameUses counts the places the program's source files mention name as
// a word: its definitions are among them.
func (e *engine) nameUses(name string) int {
	if e.prog.Source == nil {
		return 2
	}
	if e.words == nil {
		e.words = map[string]int{}
		for _, f := range e.prog.Files {
			for w, n := range e.fileWords(f) {
				e.words[w] += n
			}
		}
	}
	return e.words[name]
}

// fileWords counts the words of one file's source, read once however
// many names are asked about.
func (e *engine) fileWords(f *ir.File) map[string]int {
	if words, ok := e.wordsByFile[f]; ok {
		return words
	}
	words := map[string]int{}
	countWords(withoutComments(e.prog.Source(f), f.Comments), words)
	if e.wordsByFile == nil {
		e.wordsByFile = map[*ir.File]map[string]int{}
	}
	e.wordsByFile[f] = words
	return words
}

// withoutComments returns src with its comments' bytes blanked: a name a
// comment mentions (a TODO, commented-out code) is no use of it.
func withoutComments(src []byte, comments []ir.Span) []byte {
	if len(comments) == 0 {
		return src
	}
	out := append([]byte(nil), src...)
	for _, c := range comments {
		if c.Start < 0 || c.End > len(out) || c.Start > c.End {
			continue
		}
		for i := c.Start; i < c.End; i++ {
			out[i] = ' '
		}
	}
	return out
}

// countWords adds each identifier-like word of src to counts.
func countWords(src []byte, counts map[string]int) {
	word := func(b byte) bool {
		return b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	for i := 0; i < len(src); {
		if !word(src[i]) {
			i++
			continue
		}
		j := i
		for j < len(src) && word(src[j]) {
			j++
		}
		counts[string(src[i:j])]++
		i = j
	}
}

// instanceCallers is who calls a method that no resolved call names,
// through the instance its module exports: for export const stripe = new
// StripeService(), the unresolved calls of its method by name on a
// receiver named stripe (ctx.services.stripe.transfer(…)).
//
// When no other function of the project has the method's name, every call
// of that name on a receiver of unknown type (getRefundService().refund(…),
// a factory's result) is taken for a call of it: nothing else in view
// could answer it.
func (e *engine) instanceCallers(fn *ir.Func) []*ir.Func {
	var out []*ir.Func
	for _, u := range e.instanceCalls(fn) {
		out = append(out, u.caller)
	}
	return out
}

// instanceCalls are the calls instanceCallers takes for calls of fn.
func (e *engine) instanceCalls(fn *ir.Func) []unresolvedCall {
	if fn.Class == "" || fn.IsClass {
		return nil
	}
	names := e.instanceNames()[fn.Class]
	unique := e.definedCount(methodName(fn)) == 1 || e.overridesOnly(fn)
	var out []unresolvedCall
	for _, u := range e.unresolvedCalls[methodName(fn)] {
		if names[u.recv] && u.recv != "" || unique {
			out = append(out, u)
		}
	}
	return out
}

// overridesOnly reports whether every method of fn's name is one
// of fn's class hierarchy: an abstract base's declaration
// (BasePaymentProvider.create_payment) and its implementations
// (YookassaPaymentProvider's, a mock's). A call of that name on an object
// of unknown type (a factory's provider) dispatches to one of them, so its
// callers are each implementation's callers.
func (e *engine) overridesOnly(fn *ir.Func) bool {
	family := e.classFamily(e.classOf[fn])
	if len(family) == 0 {
		return false
	}
	for _, g := range e.definedAs(methodName(fn)) {
		if g == fn || e.classOf[g] == nil {
			// A module's function is no method: a call on an object of
			// unknown type does not reach it.
			continue
		}
		shared := false
		for c := range e.classFamily(e.classOf[g]) {
			shared = shared || family[c]
		}
		if !shared {
			return false
		}
	}
	return true
}

// classFamily is class and the project classes it derives from, once per
// class (callersOf asks for every method); empty for a function outside
// any class.
func (e *engine) classFamily(class *ir.Func) map[*ir.Func]bool {
	if class == nil || e.classFile[class] == nil {
		return nil
	}
	if family, ok := e.families[class]; ok {
		return family
	}
	family := e.projectBases(e.classFile[class], class, map[*ir.Func]bool{}, 0)
	family[class] = true
	if e.families == nil {
		e.families = map[*ir.Func]map[*ir.Func]bool{}
	}
	e.families[class] = family
	return family
}

// projectBases adds to seen the project classes class derives from.
func (e *engine) projectBases(fi *fileInfo, class *ir.Func, seen map[*ir.Func]bool, depth int) map[*ir.Func]bool {
	if depth > 8 {
		return seen
	}
	for _, b := range class.Bases {
		if bfi, base := e.baseClass(fi, class, b); base != nil && !seen[base] {
			seen[base] = true
			e.projectBases(bfi, base, seen, depth+1)
		}
	}
	return seen
}

// instanceNames maps a class to the module-level names bound to an
// instance of it (stripe for export const stripe = new StripeService()),
// over every file, computed once.
func (e *engine) instanceNames() map[string]map[string]bool {
	if e.instances != nil {
		return e.instances
	}
	e.instances = map[string]map[string]bool{}
	for f := range e.files {
		for _, st := range f.Module.Body {
			a, ok := st.(*ir.Assign)
			if !ok {
				continue
			}
			t, isName := a.Target.(*ir.Name)
			call, isCall := a.Value.(*ir.Call)
			if !isName || !isCall {
				continue
			}
			class := lastName(call.Fun)
			if e.instances[class] == nil {
				e.instances[class] = map[string]bool{}
			}
			e.instances[class][t.ID] = true
		}
	}
	return e.instances
}

// methodName is a method's own name, without its class: charge for
// Billing.charge.
func methodName(fn *ir.Func) string {
	return strings.TrimPrefix(fn.Name, fn.Class+".")
}

// frameworks are the dependencies that make a package an application a
// framework runs by its files' paths.
var frameworks = []string{"next", "@sveltejs/kit", "nuxt", "@remix-run/react", "@remix-run/node", "astro"}

// appKind is what a package.json says its package is.
type appKind struct {
	// framework: it depends on a framework that routes by file path
	// (Next.js, SvelteKit, Nuxt, Remix, Astro), which calls only its
	// convention files.
	framework bool
	// program: its start script runs it (node dist/index.js, ts-node,
	// nodemon, nest start): a server, not a library its users import.
	program bool
}

// application reports whether nothing outside the package imports its
// modules: a framework application or a program.
func (k appKind) application() bool { return k.framework || k.program }

// startsProgram matches a start script that runs the package itself.
var startsProgram = regexp.MustCompile(`^\s*(node|ts-node|ts-node-dev|tsx|nodemon|bun|deno|pm2(-runtime)?|nest\s+start|fastify\s+start)\b`)

// frameworkApp reports a file of a framework application.
func (e *engine) frameworkApp(path string) bool { return e.packageKind(path).framework }

// packageKind reads the nearest package.json above path.
func (e *engine) packageKind(path string) appKind { return e.nearestPackage(path).kind }

// jsPackage is the nearest package.json above a file: its directory ("" when
// there is none) and what its dependencies and start script make it.
type jsPackage struct {
	root string
	kind appKind
}

// nearestPackage finds the package.json above path, remembering the answer
// for every directory walked through.
func (e *engine) nearestPackage(path string) jsPackage {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return jsPackage{}
	}
	if e.apps == nil {
		e.apps = map[string]jsPackage{}
	}
	var walked []string
	found := jsPackage{}
	for {
		if pkg, ok := e.apps[dir]; ok {
			found = pkg
			break
		}
		walked = append(walked, dir)
		if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
			found = jsPackage{root: dir, kind: readPackageKind(data)}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, d := range walked {
		e.apps[d] = found
	}
	return found
}

func readPackageKind(data []byte) appKind {
	var pkg struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
		Scripts         map[string]string `json:"scripts"`
	}
	var kind appKind
	if json.Unmarshal(data, &pkg) != nil {
		return kind
	}
	for _, fw := range frameworks {
		_, dep := pkg.Dependencies[fw]
		_, dev := pkg.DevDependencies[fw]
		kind.framework = kind.framework || dep || dev
	}
	kind.program = startsProgram.MatchString(pkg.Scripts["start"])
	return kind
}

// conventionFiles are the files a framework calls by their path: routes,
// pages, layouts, API and server directories, hooks, middleware,
// instrumentation and entry points. Their exports need no importer.
var conventionFiles = regexp.MustCompile(`(^|/)((src/)?(app|pages|routes|server|api|plugins|middleware)/|(middleware|instrumentation|hooks(\.server|\.client)?|entry\.[a-z]+|root)\.(ts|js|tsx|jsx|mts|mjs)$)`)

func conventionFile(path string) bool {
	return conventionFiles.MatchString(filepath.ToSlash(path))
}
