package flow

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

// findEntries marks the functions a framework invokes: HTTP routes
// (decorated, or registered with a path), consumers (decorated as tasks,
// passed as the callback of a consume or subscribe call, or polling a
// broker themselves) and scripts
// (the methods of a class whose base a command-line framework calls, as
// Django's BaseCommand).
func (e *engine) findEntries(f *ir.File) {
	fi := e.files[f]
	for _, fn := range f.Funcs {
		if fn.IsClass {
			if k := e.classEntryKind(fi, fn, 0); k != "" {
				e.markMethods(f, fn, k)
			}
		}
		for _, d := range fn.Decorators {
			callee := d
			if c, ok := d.(*ir.Call); ok {
				callee = c.Fun
			}
			k := e.entryKind(fi, ir.Dotted(callee))
			if k == "" {
				// Known by the module that gives the decorator
				// (firebase_functions' @https_fn.on_call()).
				k = e.registrarKind(fi, callee)
			}
			if k == "procedure" {
				k = "route"
			}
			if k != "" && k != "receive" {
				e.mark(fn, k)
				if fn.IsClass {
					// @admin.register(Model) on a class: the framework
					// calls its methods.
					e.markMethods(f, fn, k)
				}
			}
			if e.retryDecorator(fi, callee) {
				e.retried[fn] = true
			}
		}
		if f.ServerActions && fn.Parent == f.Module && !fn.IsClass {
			// A server action runs for a client's request, like a route:
			// nothing redelivers it.
			e.mark(fn, "route")
		}
		e.registrations(fi, fn, fn.Body)
	}
	e.registrations(fi, f.Module, f.Module.Body)
	if fileRoute(f.Path) || vercelFunction(f.Path) {
		e.fileRouteHandlers(fi)
	}
	if root, name, ok := supabaseFunction(f.Path); ok {
		e.edgeFunctionHandlers(fi, e.supabaseScheduled(root)[name])
	}
}

// supabaseFunctions are Supabase's edge functions: each directory of
// supabase/functions is one function, its index file the entry point
// (_shared holds code they import).
var supabaseFunctions = regexp.MustCompile(`^(.*/)?supabase/functions/([^/_][^/]*)/index\.(ts|js|mts|mjs)$`)

// supabaseFunction splits an edge function's entry file into the
// directory holding supabase/ and the function's name.
func supabaseFunction(path string) (root, name string, ok bool) {
	m := supabaseFunctions.FindStringSubmatch(filepath.ToSlash(path))
	if m == nil {
		return "", "", false
	}
	root = strings.TrimSuffix(m[1], "/")
	if root == "" {
		root = "."
	}
	return root, m[2], true
}

// edgeFunctionHandlers marks the handler an edge function serves
// (serve(handler), Deno.serve(handler)): a request's, like a route, or
// on schedule when pg_cron calls the function, like a job's.
func (e *engine) edgeFunctionHandlers(fi *fileInfo, scheduled bool) {
	kind := "route"
	if scheduled {
		kind = "consumer"
	}
	mod := fi.f.Module
	for _, st := range mod.Body {
		var x ir.Expr
		switch st := st.(type) {
		case *ir.ExprStmt:
			x = st.X
		case *ir.Assign:
			x = st.Value // export default Deno.serve(…), const server = serve(…)
		}
		c, ok := x.(*ir.Call)
		if !ok || len(c.Args) == 0 || lastName(c.Fun) != "serve" {
			continue
		}
		for _, a := range c.Args {
			if target := e.callbackFunc(fi, mod, a); target != nil {
				e.mark(target, kind)
			}
		}
	}
}

// cronCall is an edge function's URL in SQL that pg_cron runs:
// cron.schedule(…, $$ select net.http_post(url := '…/functions/v1/NAME' …) $$).
var cronCall = regexp.MustCompile(`/functions/v1/([A-Za-z0-9_-]+)`)

// supabaseScheduled is the set of edge functions the SQL files under
// root/supabase schedule with pg_cron, read once per root.
func (e *engine) supabaseScheduled(root string) map[string]bool {
	if e.scheduled == nil {
		e.scheduled = map[string]map[string]bool{}
	}
	if s, ok := e.scheduled[root]; ok {
		return s
	}
	s := map[string]bool{}
	e.scheduled[root] = s
	_ = filepath.WalkDir(filepath.Join(filepath.FromSlash(root), "supabase"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".sql") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(data), "cron.schedule") {
			return nil
		}
		for _, m := range cronCall.FindAllStringSubmatch(string(data), -1) {
			s[m[1]] = true
		}
		return nil
	})
	return s
}

// retryDecorator reports a decorator a retry library gives (tenacity's
// @retry, backoff's @on_exception): it runs the function again.
func (e *engine) retryDecorator(fi *fileInfo, callee ir.Expr) bool {
	v := e.moduleCtx(fi).eval(callee)
	if v.mod == "" {
		return false
	}
	for _, p := range fi.tables.Retries {
		if p.MatchMethod(v.mod, "", v.chain) {
			return true
		}
	}
	return false
}

// fileRoutes are the files a framework routes by their path: Next.js's
// app/**/route.ts and pages/api, SvelteKit's +server.ts and
// +page.server.ts, Nuxt's server/api and server/routes, Remix's app/routes.
var fileRoutes = regexp.MustCompile(`(^|/)(app/(.+/)?route|pages/api/.+|src/routes/(.+/)?\+(server|page\.server)|server/(api|routes)/.+|app/routes/.+)\.(ts|js|mts|mjs|tsx|jsx)$`)

func fileRoute(path string) bool {
	return fileRoutes.MatchString(filepath.ToSlash(path))
}

// defaultRoutes are the routed files whose default export is the request's
// handler: Next.js's pages/api, Nuxt's server/api and server/routes
// (export default defineEventHandler(…)). Vercel's functions are too
// (vercelFunction).
var defaultRoutes = regexp.MustCompile(`(^|/)(pages/api/.+|server/(api|routes)/.+)\.(ts|js|mts|mjs)$`)

// vercelFunction reports a file of a Vercel project's api directory (the
// directory beside its vercel.json): Vercel calls its default export for a
// request to /api/…, the file's path.
func vercelFunction(path string) bool {
	_, _, ok := vercelRoot(path)
	return ok
}

// vercelRoot splits a path under an api directory into the project root
// above it and the URL path Vercel serves it at (/api/cron/payout); ok
// only when the root holds a vercel.json.
func vercelRoot(path string) (root, url string, ok bool) {
	slashed := "/" + filepath.ToSlash(path)
	i := strings.LastIndex(slashed, "/api/")
	if i < 0 || !scriptFile.MatchString(slashed) {
		return "", "", false
	}
	root = strings.TrimSuffix(slashed[:i], "/pages") // Next.js's pages/api
	root = strings.TrimPrefix(root, "/")
	if root == "" || root == "pages" {
		root = "."
	}
	if _, err := os.Stat(filepath.Join(filepath.FromSlash(root), "vercel.json")); err != nil {
		return "", "", false
	}
	url = strings.TrimSuffix(slashed[i:], filepath.Ext(slashed))
	return root, strings.TrimSuffix(url, "/index"), true
}

var scriptFile = regexp.MustCompile(`\.(ts|js|mts|mjs)$`)

// vercelCron reports a file a vercel.json's crons call on schedule: its
// handler runs again every day, which a plain route's does not.
func vercelCron(path string) bool {
	root, url, ok := vercelRoot(path)
	if !ok {
		return false
	}
	data, err := os.ReadFile(filepath.Join(filepath.FromSlash(root), "vercel.json"))
	if err != nil {
		return false
	}
	var cfg struct {
		Crons []struct {
			Path string `json:"path"`
		} `json:"crons"`
	}
	if json.Unmarshal(data, &cfg) != nil {
		return false
	}
	for _, c := range cfg.Crons {
		p := c.Path
		if j := strings.IndexAny(p, "?#"); j >= 0 {
			p = p[:j]
		}
		if strings.TrimSuffix(p, "/") == url {
			return true
		}
	}
	return false
}

// routeExports are the module-level names a routed file's framework calls
// for a client's request: the HTTP methods, SvelteKit's form actions and
// Remix's action. GET is left out: the method a scheduler calls (Vercel
// cron, QStash) and the one clients and proxies repeat freely, since it
// promises no effect. Its handler is judged by its callers, like any
// function.
var routeExports = map[string]bool{"POST": true, "PUT": true, "PATCH": true, "DELETE": true, "actions": true, "action": true}

// fileRouteHandlers marks the handlers of a file the framework routes by
// its path: nothing registers them, and nothing redelivers a request.
func (e *engine) fileRouteHandlers(fi *fileInfo) {
	mod := fi.f.Module
	exports := routeExports
	if (defaultRoutes.MatchString(filepath.ToSlash(fi.f.Path)) || vercelFunction(fi.f.Path)) && !vercelCron(fi.f.Path) {
		// A scheduled function is left to its callers, out of view.
		exports = maps.Clone(routeExports)
		exports["default"] = true
	}
	for _, s := range mod.Body {
		switch s := s.(type) {
		case *ir.FuncDef:
			if exports[s.Name] {
				e.mark(s.F, "route")
			}
		case *ir.Assign:
			n, ok := s.Target.(*ir.Name)
			if !ok || !exports[n.ID] {
				continue
			}
			// export const POST = async (req) => …, = withAuth(async (req) => …),
			// or actions = { default: async () => … }
			cands := append([]ir.Expr{s.Value}, wrapped([]ir.Expr{s.Value}, 2)...)
			if d, ok := s.Value.(*ir.Dict); ok {
				for _, kv := range d.Entries {
					cands = append(cands, kv.Value)
				}
			}
			for _, x := range cands {
				if target := e.callbackFunc(fi, mod, x); target != nil {
					e.mark(target, "route")
				}
			}
		}
	}
}

// classEntryKind is the kind of entry a class is by its bases: a
// framework's base named in the tables, directly or through the project's
// own classes (class DonationView(BaseView), BaseView(APIView)); "" when
// none is.
func (e *engine) classEntryKind(fi *fileInfo, class *ir.Func, depth int) string {
	if depth > 4 {
		return ""
	}
	for _, b := range class.Bases {
		if k := e.entryKind(fi, ir.Dotted(b)); k != "" {
			return k
		}
		if k := e.baseEntryKind(fi, b); k != "" {
			return k
		}
		bfi, base := e.baseClass(fi, class, b)
		if base == nil {
			continue
		}
		if k := e.classEntryKind(bfi, base, depth+1); k != "" {
			return k
		}
	}
	return ""
}

func (e *engine) entryKind(fi *fileInfo, dotted string) string {
	if dotted == "" {
		return ""
	}
	for _, p := range fi.tables.Entries {
		if p.Package == "" && p.FunctionPattern() != nil && p.FunctionPattern().MatchString(dotted) {
			return p.Kind
		}
	}
	return ""
}

// baseEntryKind is the kind of entry a class on base b is, by where the base
// comes from (Entries with a package: a DRF viewset, a Django or Flask view
// is a route whose methods the framework calls); "" otherwise.
func (e *engine) baseEntryKind(fi *fileInfo, b ir.Expr) string {
	bv := e.moduleCtx(fi).eval(b)
	if bv.mod == "" {
		return ""
	}
	full := bv.mod
	if bv.chain != "" {
		full += "." + bv.chain
	}
	return packageEntryKind(fi.tables.Entries, full, false)
}

// registrarKind is the kind of entry a call of x registers, when x is a
// function a module gives for it (Entries with a package and Receiver
// "-": Django's django.urls.path); "" otherwise.
func (e *engine) registrarKind(fi *fileInfo, x ir.Expr) string {
	switch x.(type) {
	case *ir.Name, *ir.Attr:
	default:
		return ""
	}
	v := e.moduleCtx(fi).eval(x)
	mod := v.mod
	if mod == "" {
		// Reached through the library's own calls
		// (functions.region(…).runWith(…).https.onCall).
		mod = v.lib
	}
	if mod == "" || v.chain == "" {
		return ""
	}
	return packageEntryKind(fi.tables.Entries, mod+"."+v.chain, true)
}

// packageEntryKind matches full (module.member) against the Entries with
// a package: the registering functions (Receiver "-") or the base classes.
func packageEntryKind(entries []config.Pattern, full string, registrar bool) string {
	for _, p := range entries {
		rest, ok := memberOf(p.Package, full)
		if p.Package != "" && ok && (p.Receiver == "-") == registrar && p.FunctionPattern() != nil && p.FunctionPattern().MatchString(rest) {
			return p.Kind
		}
	}
	return ""
}

// memberOf splits full (module.member) into the member of pkg it names;
// a pkg ending in "/..." takes in the module's subpaths too
// (firebase-functions/... holds firebase-functions/v2/https.onCall).
func memberOf(pkg, full string) (string, bool) {
	base, sub := strings.CutSuffix(pkg, "/...")
	if !sub {
		return strings.CutPrefix(full, pkg+".")
	}
	rest, ok := strings.CutPrefix(full, base)
	if !ok || rest == "" || rest[0] != '.' && rest[0] != '/' {
		return "", false
	}
	_, member, ok := strings.Cut(rest, ".")
	return member, ok
}

// markMethods marks the methods of class as entries of kind.
func (e *engine) markMethods(f *ir.File, class *ir.Func, kind string) {
	for _, m := range f.Funcs {
		if m.Class == class.Class && !m.IsClass {
			e.mark(m, kind)
		}
	}
}

func (e *engine) mark(fn *ir.Func, kind string) {
	if old := e.entry[fn]; old == "consumer" {
		return
	}
	e.entry[fn] = kind
}

// registrations finds calls that register callbacks in stmts.
func (e *engine) registrations(fi *fileInfo, fn *ir.Func, stmts []ir.Stmt) {
	walkExprs(stmts, func(x ir.Expr) {
		if d, ok := x.(*ir.Dict); ok {
			e.resolverMap(fi, fn, d)
			return
		}
		c, ok := x.(*ir.Call)
		if !ok {
			return
		}
		kind := e.entryKind(fi, calleeName(c))
		byModule := false
		if kind == "" {
			// Known by the module it comes from (django.urls.path): its
			// paths need not start with a slash.
			kind, byModule = e.registrarKind(fi, c.Fun), true
		}
		if kind == "" {
			return
		}
		if kind == "route" && !byModule && !routeCall(c) {
			return
		}
		if kind == "procedure" {
			kind = "route" // answered like one, registered without a path
		}
		if kind == "receive" {
			e.mark(fn, "consumer") // it polls: what it handles comes again on a redelivery
			return
		}
		var cands []ir.Expr
		cands = append(cands, c.Args...)
		for _, kv := range c.Kwargs {
			cands = append(cands, kv.Value)
		}
		for _, a := range c.Args {
			if d, ok := a.(*ir.Dict); ok {
				for _, kv := range d.Entries {
					cands = append(cands, kv.Value)
				}
			}
		}
		cands = append(cands, wrapped(c.Args, 2)...)
		for _, a := range cands {
			if target := e.callbackFunc(fi, fn, a); target != nil {
				e.mark(target, kind)
			}
		}
	})
}

// resolverMap marks the handlers of an object literal whose member the
// tables name as a map of handlers (Entries with a field: GraphQL's
// { Mutation: { addCredit, payTo } }, handed to a schema).
func (e *engine) resolverMap(fi *fileInfo, fn *ir.Func, d *ir.Dict) {
	for _, kv := range d.Entries {
		kind := ""
		for _, p := range fi.tables.Entries {
			if fp := p.FieldPattern(); fp != nil && p.FunctionPattern() == nil && fp.MatchString(kv.Key) {
				kind = p.Kind
				break
			}
		}
		inner, ok := kv.Value.(*ir.Dict)
		if kind == "" || !ok {
			continue
		}
		for _, h := range inner.Entries {
			if target := e.callbackFunc(fi, fn, h.Value); target != nil {
				e.mark(target, kind)
			}
		}
	}
}

// wrapped is the arguments of calls among args, depth levels down: the
// callback a wrapper hands on, as in q.process("charge", wrap(async (job)
// => …)) or router.post("/pay", asyncHandler(pay)). The framework calls
// what the wrapper returns, and that calls the callback.
func wrapped(args []ir.Expr, depth int) []ir.Expr {
	if depth == 0 {
		return nil
	}
	var out []ir.Expr
	for _, a := range args {
		if c, ok := a.(*ir.Call); ok {
			out = append(out, c.Args...)
			out = append(out, wrapped(c.Args, depth-1)...)
		}
	}
	return out
}

// calleeName is the dotted name of what c calls; on a chain of calls
// (procedure.input(schema).mutation(fn)) the method's name after "().".
func calleeName(c *ir.Call) string {
	if d := ir.Dotted(c.Fun); d != "" {
		return d
	}
	if at, ok := c.Fun.(*ir.Attr); ok {
		if _, chained := at.X.(*ir.Call); chained {
			return "()." + at.Name
		}
	}
	return ""
}

// routeCall reports a registration with a path: app.post("/charge", h).
func routeCall(c *ir.Call) bool {
	if len(c.Args) == 0 {
		return false
	}
	lit, ok := c.Args[0].(*ir.Lit)
	return ok && lit.Kind == "str" && strings.HasPrefix(lit.Value, "/")
}

func (e *engine) callbackFunc(fi *fileInfo, fn *ir.Func, x ir.Expr) *ir.Func {
	switch x := x.(type) {
	case *ir.Lambda:
		return x.F
	case *ir.Name:
		for _, cand := range fi.f.Funcs {
			if cand.Name == x.ID && (cand.Parent == fn || cand.Parent == fi.f.Module) {
				return cand
			}
		}
		if d := fi.defs[x.ID]; d != nil {
			return d
		}
	case *ir.Attr:
		if n, ok := x.X.(*ir.Name); ok && (n.ID == "self" || n.ID == "this") && fn.Class != "" {
			return fi.methods[fn.Class+"."+x.Name]
		}
	}
	if f := e.boundFunc(fi, x, 0); f != nil {
		return f
	}
	if _, ok := x.(*ir.Attr); ok {
		// A member of a submodule of an imported package
		// (views.topup.top_up): as the module's values resolve it.
		if v := e.moduleCtx(fi).eval(x); v.fn != nil && !v.fn.IsClass {
			return v.fn
		}
	}
	return nil
}

// boundFunc resolves a callback that names a module-level binding, here
// or in another module of the project: a function (def, function, const
// f = () => …), one imported (import { pay } from "./ctrl"), a member of
// an imported module (views.pay), or of an object literal a module binds
// (export const PayController = { makeJobPayment }, registered as
// router.post("/pay", PayController.makeJobPayment)).
func (e *engine) boundFunc(fi *fileInfo, x ir.Expr, depth int) *ir.Func {
	if depth > 4 {
		return nil
	}
	switch x := x.(type) {
	case *ir.Name:
		if f, _ := moduleBinding(fi.f, x.ID); f != nil {
			return f
		}
		if tfi, name := e.imported(fi, x.ID); tfi != nil {
			if name == "" {
				name = ir.CommonJSExports // require("./m") of module.exports = h
			}
			return e.boundFunc(tfi, &ir.Name{ID: name}, depth+1)
		}
		// A barrel's export * from "./service": the name is one of the
		// modules it passes on.
		for _, im := range fi.f.Imports {
			if im.Name != "*" {
				continue
			}
			if target := e.prog.Resolve(fi.f, im.Module); target != nil && target != fi.f {
				if tfi := e.files[target]; tfi != nil {
					if f := e.boundFunc(tfi, x, depth+1); f != nil {
						return f
					}
				}
			}
		}
	case *ir.Attr:
		n, ok := x.X.(*ir.Name)
		if !ok {
			return nil
		}
		if _, d := moduleBinding(fi.f, n.ID); d != nil {
			return e.dictMember(fi, d, x.Name, depth)
		}
		tfi, name := e.imported(fi, n.ID)
		if tfi == nil {
			return nil
		}
		if name == "" {
			return e.boundFunc(tfi, &ir.Name{ID: x.Name}, depth+1) // a module's member
		}
		if _, d := moduleBinding(tfi.f, name); d != nil {
			return e.dictMember(tfi, d, x.Name, depth+1)
		}
	}
	return nil
}

func (e *engine) dictMember(fi *fileInfo, d *ir.Dict, name string, depth int) *ir.Func {
	for _, kv := range d.Entries {
		if kv.Key != name {
			continue
		}
		if l, ok := kv.Value.(*ir.Lambda); ok {
			return l.F
		}
		return e.boundFunc(fi, kv.Value, depth+1)
	}
	return nil
}

// imported resolves a name a file imports from a project module: the
// module's file, and the member's name there ("" for the module itself).
func (e *engine) imported(fi *fileInfo, local string) (*fileInfo, string) {
	im, ok := fi.imports[local]
	if !ok || e.prog.Resolve == nil {
		return nil, ""
	}
	tf := e.prog.Resolve(fi.f, im.Module)
	if tf == nil || e.files[tf] == nil {
		return nil, ""
	}
	name := im.Name
	if name == "*" {
		name = ""
	}
	return e.files[tf], name
}

// moduleBinding is what a top-level name of f is bound to: a function or
// an object literal.
func moduleBinding(f *ir.File, name string) (*ir.Func, *ir.Dict) {
	return aliasedBinding(f, name, 0)
}

// aliasedBinding is moduleBinding through at most 8 aliases (a = b).
func aliasedBinding(f *ir.File, name string, depth int) (*ir.Func, *ir.Dict) {
	if depth > 8 {
		return nil, nil
	}
	for _, st := range f.Module.Body {
		switch st := st.(type) {
		case *ir.FuncDef:
			if st.Name == name {
				return st.F, nil
			}
		case *ir.Assign:
			if !bindsName(st.Target, name) {
				continue
			}
			switch v := st.Value.(type) {
			case *ir.Lambda:
				return v.F, nil
			case *ir.Dict:
				return nil, v
			case *ir.Name:
				if v.ID != name {
					// module.exports = handler, export default resolver,
					// export const pay = handlePay: the name it stands for.
					return aliasedBinding(f, v.ID, depth+1)
				}
			}
		}
	}
	return nil, nil
}

// bindsName reports whether an assignment's target binds a module's name:
// the name itself, or a CommonJS export of it (exports.pay = …,
// module.exports.pay = …), which require("./ctrl").pay reads.
func bindsName(target ir.Expr, name string) bool {
	switch t := target.(type) {
	case *ir.Name:
		return t.ID == name
	case *ir.Attr:
		if t.Name != name {
			return false
		}
		switch x := t.X.(type) {
		case *ir.Name:
			return x.ID == "exports"
		case *ir.Attr:
			n, ok := x.X.(*ir.Name)
			return ok && n.ID == "module" && x.Name == "exports"
		}
	}
	return false
}

// walkExprs calls visit for every expression in stmts, nested ones
// included, but not inside nested function bodies.
func walkExprs(stmts []ir.Stmt, visit func(ir.Expr)) {
	var expr func(ir.Expr)
	expr = func(x ir.Expr) {
		if x == nil {
			return
		}
		visit(x)
		switch x := x.(type) {
		case *ir.Attr:
			expr(x.X)
		case *ir.Index:
			expr(x.X)
			expr(x.Key)
		case *ir.Call:
			expr(x.Fun)
			for _, a := range x.Args {
				expr(a)
			}
			for _, kv := range x.Kwargs {
				expr(kv.Value)
			}
		case *ir.Str:
			for _, p := range x.Parts {
				expr(p)
			}
		case *ir.Binary:
			expr(x.L)
			expr(x.R)
		case *ir.Dict:
			for _, kv := range x.Entries {
				expr(kv.KeyX)
				expr(kv.Value)
			}
			for _, s := range x.Spreads {
				expr(s)
			}
		case *ir.List:
			for _, el := range x.Elems {
				expr(el)
			}
		case *ir.Other:
			for _, el := range x.Xs {
				expr(el)
			}
		case *ir.Pattern:
			for _, el := range x.Elems {
				expr(el)
			}
			for _, kv := range x.Keys {
				expr(kv.Value)
			}
		}
	}
	var stmt func([]ir.Stmt)
	stmt = func(ss []ir.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ir.Assign:
				expr(s.Target)
				expr(s.Value)
			case *ir.ExprStmt:
				expr(s.X)
			case *ir.Return:
				expr(s.X)
			case *ir.If:
				expr(s.Cond)
				stmt(s.Then)
				stmt(s.Else)
			case *ir.Loop:
				stmt(s.Head)
				stmt(s.Body)
			case *ir.Try:
				stmt(s.Body)
				stmt(s.Handlers)
				stmt(s.Finally)
			}
		}
	}
	stmt(stmts)
}
