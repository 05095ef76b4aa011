//go:build cgo

package frontend

import (
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

func (l *lowerer) tsBlock(n *node) []ir.Stmt {
	var out []ir.Stmt
	for _, c := range named(n) {
		out = append(out, l.tsStmt(c)...)
	}
	return out
}

// tsBody lowers a statement used as a body: a block or a single statement.
func (l *lowerer) tsBody(n *node) []ir.Stmt {
	if n == nil {
		return nil
	}
	if n.Type() == "statement_block" {
		return l.tsBlock(n)
	}
	return l.tsStmt(n)
}

func (l *lowerer) tsStmt(n *node) []ir.Stmt {
	switch n.Type() {
	case "import_statement":
		l.tsImport(n)
		return nil
	case "export_statement":
		if d := n.ChildByFieldName("declaration"); d != nil {
			out := l.tsStmt(d)
			for _, st := range out {
				if fd, ok := st.(*ir.FuncDef); ok {
					fd.F.Exported = true
				}
				if as, ok := st.(*ir.Assign); ok {
					if lam, ok := as.Value.(*ir.Lambda); ok && as.Decl {
						lam.F.Exported = true // export const pay = async () => …
					}
				}
			}
			if name := d.ChildByFieldName("name"); name != nil && exportsDefault(l, n) {
				// export default function handler(req, res): the module's
				// default export is that function, which a framework that
				// routes files by path calls.
				out = append(out, &ir.Assign{Target: &ir.Name{ID: "default", Pos: pos(n)}, Value: &ir.Name{ID: l.text(name), Pos: pos(name)}, Pos: pos(n)})
			}
			return out
		}
		if src := n.ChildByFieldName("source"); src != nil {
			l.tsReexport(n, unquote(l.text(src)))
			return nil
		}
		if v := n.ChildByFieldName("value"); v != nil {
			return []ir.Stmt{&ir.Assign{Target: &ir.Name{ID: "default", Pos: pos(n)}, Value: l.tsExpr(v), Pos: pos(n)}}
		}
		var out []ir.Stmt
		for _, c := range named(n) {
			switch c.Type() {
			case "function_declaration", "generator_function_declaration", "class_declaration", "lexical_declaration", "variable_declaration", "abstract_class_declaration":
				out = append(out, l.tsStmt(c)...)
			}
		}
		return out
	case "lexical_declaration", "variable_declaration":
		var out []ir.Stmt
		for _, d := range named(n) {
			if d.Type() != "variable_declarator" {
				continue
			}
			name, value := d.ChildByFieldName("name"), d.ChildByFieldName("value")
			if value == nil {
				// let stripe: Stripe | null; the name is this scope's,
				// undefined until a later assignment.
				out = append(out, &ir.Assign{Target: l.tsTarget(name), Value: &ir.Lit{Kind: "none", Pos: pos(d)}, Pos: pos(d), Decl: true})
				continue
			}
			if l.tsRequire(name, value) {
				continue
			}
			out = append(out, &ir.Assign{Target: l.tsTarget(name), Value: l.tsExpr(value), Pos: pos(d), Decl: true})
		}
		return out
	case "expression_statement":
		var out []ir.Stmt
		for _, c := range named(n) {
			out = append(out, l.tsExprStmt(c)...)
		}
		return out
	case "break_statement":
		return []ir.Stmt{&ir.Break{}}
	case "return_statement":
		r := &ir.Return{Pos: pos(n)}
		if cs := named(n); len(cs) > 0 {
			r.X = l.tsExpr(cs[0])
		}
		return []ir.Stmt{r}
	case "if_statement":
		s := &ir.If{Cond: l.tsExpr(n.ChildByFieldName("condition")), Then: l.tsBody(n.ChildByFieldName("consequence"))}
		if alt := n.ChildByFieldName("alternative"); alt != nil {
			for _, c := range named(alt) {
				s.Else = append(s.Else, l.tsBody(c)...)
			}
		}
		return []ir.Stmt{s}
	case "for_statement":
		var head []ir.Stmt
		if i := n.ChildByFieldName("initializer"); i != nil {
			head = l.tsStmt(i)
		}
		loop := &ir.Loop{Body: l.tsBody(n.ChildByFieldName("body")), Pos: pos(n)}
		for _, f := range []string{"condition", "increment"} {
			if c := n.ChildByFieldName(f); c != nil {
				loop.Body = append(loop.Body, l.tsExprStmt(c)...)
			}
		}
		return append(head, loop)
	case "for_in_statement":
		head := &ir.Assign{Target: l.tsTarget(n.ChildByFieldName("left")), Value: &ir.Index{X: l.tsExpr(n.ChildByFieldName("right")), Pos: pos(n)}, Pos: pos(n)}
		return []ir.Stmt{&ir.Loop{Head: []ir.Stmt{head}, Body: l.tsBody(n.ChildByFieldName("body")), Pos: pos(n)}}
	case "while_statement", "do_statement":
		return []ir.Stmt{&ir.Loop{Head: []ir.Stmt{&ir.ExprStmt{X: l.tsExpr(n.ChildByFieldName("condition"))}}, Body: l.tsBody(n.ChildByFieldName("body")), Pos: pos(n)}}
	case "try_statement":
		t := &ir.Try{Body: l.tsBody(n.ChildByFieldName("body"))}
		if h := n.ChildByFieldName("handler"); h != nil {
			t.Handlers = l.tsBody(h.ChildByFieldName("body"))
		}
		if f := n.ChildByFieldName("finalizer"); f != nil {
			t.Finally = l.tsBody(f.ChildByFieldName("body"))
		}
		return []ir.Stmt{t}
	case "statement_block":
		return l.tsBlock(n)
	case "labeled_statement":
		return l.tsBody(n.ChildByFieldName("body"))
	case "switch_statement":
		subj := l.tsExpr(n.ChildByFieldName("value"))
		var arms []arm
		var pending []ir.Expr // values of empty cases falling through
		for _, c := range named(n.ChildByFieldName("body")) {
			if c.Type() != "switch_case" && c.Type() != "switch_default" {
				continue // a comment
			}
			var body []ir.Stmt
			for _, s := range fieldAll(c, "body") {
				body = append(body, l.tsStmt(s)...)
			}
			a := arm{body: withoutBreaks(body), isDefault: c.Type() == "switch_default"}
			if v := c.ChildByFieldName("value"); v != nil {
				pending = append(pending, l.tsExpr(v))
			}
			if len(fieldAll(c, "body")) == 0 && !a.isDefault {
				continue // case 'a': case 'b': … runs the next case's body
			}
			a.values, pending = pending, nil
			arms = append(arms, a)
		}
		return []ir.Stmt{switchChain(subj, arms)}
	case "function_declaration", "generator_function_declaration":
		name := l.text(n.ChildByFieldName("name"))
		return []ir.Stmt{&ir.FuncDef{Name: name, F: l.tsFunc(name, n)}}
	case "class_declaration", "abstract_class_declaration", "class":
		return l.tsClass(n)
	}
	return nil
}

func (l *lowerer) tsExprStmt(n *node) []ir.Stmt {
	switch n.Type() {
	case "assignment_expression":
		if left := n.ChildByFieldName("left"); left != nil && l.text(left) == "module.exports" {
			// CommonJS's whole export (module.exports = async (req, res) =>
			// …): what require("./m") returns, and the default export an
			// ESM import of the module sees.
			return []ir.Stmt{
				&ir.Assign{Target: &ir.Name{ID: ir.CommonJSExports, Pos: pos(left)}, Value: l.tsExpr(n.ChildByFieldName("right")), Pos: pos(n)},
				&ir.Assign{Target: &ir.Name{ID: "default", Pos: pos(left)}, Value: &ir.Name{ID: ir.CommonJSExports, Pos: pos(left)}, Pos: pos(n)},
			}
		}
		return []ir.Stmt{&ir.Assign{Target: l.tsTarget(n.ChildByFieldName("left")), Value: l.tsExpr(n.ChildByFieldName("right")), Pos: pos(n)}}
	case "augmented_assignment_expression":
		op := strings.TrimSuffix(l.text(n.ChildByFieldName("operator")), "=")
		return []ir.Stmt{&ir.Assign{Target: l.tsTarget(n.ChildByFieldName("left")), Value: l.tsExpr(n.ChildByFieldName("right")), Op: op, Pos: pos(n)}}
	case "update_expression":
		arg := n.ChildByFieldName("argument")
		op := "+"
		if strings.Contains(l.text(n), "--") {
			op = "-"
		}
		return []ir.Stmt{&ir.Assign{Target: l.tsTarget(arg), Value: &ir.Lit{Kind: "int", Value: "1", Pos: pos(n)}, Op: op, Pos: pos(n)}}
	case "sequence_expression":
		var out []ir.Stmt
		for _, c := range named(n) {
			out = append(out, l.tsExprStmt(c)...)
		}
		return out
	case "parenthesized_expression":
		if cs := named(n); len(cs) > 0 {
			return l.tsExprStmt(cs[0])
		}
	}
	return []ir.Stmt{&ir.ExprStmt{X: l.tsExpr(n)}}
}

// tsRequire records `const x = require("m")`, `const { a, b: c } =
// require("m")` and `const x = require("m").y` as imports.
func (l *lowerer) tsRequire(name, value *node) bool {
	member := ""
	v := value
	if v.Type() == "await_expression" && len(named(v)) == 1 {
		v = named(v)[0] // const { stripe } = await import("./stripe")
	}
	if v.Type() == "member_expression" {
		member = l.text(v.ChildByFieldName("property"))
		v = v.ChildByFieldName("object")
	}
	mod, ok := l.requireOf(v)
	if !ok {
		return false
	}
	switch name.Type() {
	case "identifier":
		l.file.Imports = append(l.file.Imports, ir.Import{Local: l.text(name), Module: mod, Name: member})
	case "object_pattern":
		for _, c := range named(name) {
			switch c.Type() {
			case "shorthand_property_identifier_pattern":
				l.file.Imports = append(l.file.Imports, ir.Import{Local: l.text(c), Module: mod, Name: l.text(c)})
			case "pair_pattern":
				l.file.Imports = append(l.file.Imports, ir.Import{Local: l.text(c.ChildByFieldName("value")), Module: mod, Name: l.text(c.ChildByFieldName("key"))})
			}
		}
	default:
		return false
	}
	return true
}

func (l *lowerer) requireOf(n *node) (string, bool) {
	// require("./m") and a dynamic import("./m") bind the whole module.
	if n == nil || n.Type() != "call_expression" {
		return "", false
	}
	if f := n.ChildByFieldName("function"); f == nil || l.text(f) != "require" && l.text(f) != "import" {
		return "", false
	}
	args := named(n.ChildByFieldName("arguments"))
	if len(args) != 1 || args[0].Type() != "string" {
		return "", false
	}
	return unquote(l.text(args[0])), true
}

func unquote(s string) string {
	if len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return s
}

func (l *lowerer) tsImport(n *node) {
	src := n.ChildByFieldName("source")
	if src == nil {
		return
	}
	mod := unquote(l.text(src))
	for _, c := range named(n) {
		if c.Type() != "import_clause" {
			continue
		}
		for _, cc := range named(c) {
			switch cc.Type() {
			case "identifier":
				l.file.Imports = append(l.file.Imports, ir.Import{Local: l.text(cc), Module: mod, Name: "default"})
			case "namespace_import":
				l.tsNamespaceBinding(cc, mod)
			case "named_imports":
				l.tsNamedBindings(cc, "import_specifier", mod)
			}
		}
	}
}

// tsReexport lowers export … from "m" (a barrel file's index.ts) to
// imports: export { a, b as c } binds c to m's a, export * as ns binds ns
// to m, and export * makes m's names this module's (Name "*", as Python's
// from m import *).
func (l *lowerer) tsReexport(n *node, mod string) {
	star := true
	first := len(l.file.Imports)
	defer func() {
		for i := first; i < len(l.file.Imports); i++ {
			l.file.Imports[i].Reexport = true
		}
	}()
	for _, c := range named(n) {
		switch c.Type() {
		case "export_clause":
			star = false
			l.tsNamedBindings(c, "export_specifier", mod)
		case "namespace_export":
			star = false
			l.tsNamespaceBinding(c, mod)
		}
	}
	if star {
		l.file.Imports = append(l.file.Imports, ir.Import{Local: "*", Module: mod, Name: "*"})
	}
}

// tsNamedBindings binds each { name as alias } of an import or export
// clause to mod's name.
func (l *lowerer) tsNamedBindings(clause *node, specType, mod string) {
	for _, spec := range named(clause) {
		if spec.Type() != specType {
			continue
		}
		name := l.text(spec.ChildByFieldName("name"))
		local := name
		if a := spec.ChildByFieldName("alias"); a != nil {
			local = l.text(a)
		}
		l.file.Imports = append(l.file.Imports, ir.Import{Local: local, Module: mod, Name: name})
	}
}

// tsNamespaceBinding binds * as ns (imported or exported) to the module.
func (l *lowerer) tsNamespaceBinding(n *node, mod string) {
	for _, id := range named(n) {
		l.file.Imports = append(l.file.Imports, ir.Import{Local: l.text(id), Module: mod})
	}
}

func (l *lowerer) tsParams(f *ir.Func, n *node) {
	if n == nil {
		return
	}
	if n.Type() == "identifier" {
		f.Params = append(f.Params, l.text(n))
		return
	}
	for _, p := range named(n) {
		pat := p
		switch p.Type() {
		case "required_parameter", "optional_parameter":
			pat = p.ChildByFieldName("pattern")
		case "assignment_pattern":
			pat = p.ChildByFieldName("left")
		case "rest_pattern":
			if cs := named(p); len(cs) > 0 {
				pat = cs[0]
			}
		case "comment":
			continue
		}
		if pat == nil {
			continue
		}
		switch pat.Type() {
		case "identifier", "this":
			f.Params = append(f.Params, l.text(pat))
			f.SetParamType(l.text(pat), l.tsNamedType(p.ChildByFieldName("type")))
			if parameterProperty(p) {
				// constructor(private readonly payments: PaymentService):
				// the parameter is also stored on the instance.
				at := pos(pat)
				f.Body = append(f.Body, &ir.Assign{Target: &ir.Attr{X: &ir.Name{ID: "this", Pos: at}, Name: l.text(pat), Pos: at}, Value: &ir.Name{ID: l.text(pat), Pos: at}, Pos: at})
			}
		case "object_pattern", "array_pattern":
			tmp := l.fresh()
			f.Params = append(f.Params, tmp)
			f.Body = append(f.Body, &ir.Assign{Target: l.tsTarget(pat), Value: &ir.Name{ID: tmp, Pos: pos(pat)}, Pos: pos(pat)})
		default:
			f.Params = append(f.Params, l.fresh())
		}
	}
}

// parameterProperty reports a constructor parameter declared with an
// accessibility or readonly modifier, which TypeScript also makes a field.
func parameterProperty(p *node) bool {
	for i := 0; i < int(p.ChildCount()); i++ {
		switch p.Child(i).Type() {
		case "accessibility_modifier", "readonly", "override_modifier":
			return true
		}
	}
	return false
}

// privateMember reports a class member only the class can reach: declared
// private, or named #name.
func privateMember(l *lowerer, m *node) bool {
	if name := m.ChildByFieldName("name"); name != nil && name.Type() == "private_property_identifier" {
		return true
	}
	for i := 0; i < int(m.ChildCount()); i++ {
		if k := m.Child(i); k.Type() == "accessibility_modifier" && l.text(k) == "private" {
			return true
		}
	}
	return false
}

// decorator is the expression of a decorator node: Post("/pay") in
// @Post("/pay").
func (l *lowerer) decorator(n *node) ir.Expr {
	if xs := named(n); len(xs) > 0 {
		return l.tsExpr(xs[0])
	}
	return &ir.Other{Pos: pos(n)}
}

func (l *lowerer) tsFunc(name string, n *node) *ir.Func {
	f := l.newFunc(name, pos(n))
	saved := l.class
	if name == "<lambda>" {
		l.class = ""
	}
	l.enter(f, func() {
		params := n.ChildByFieldName("parameters")
		if params == nil {
			params = n.ChildByFieldName("parameter")
		}
		l.tsParams(f, params)
		body := n.ChildByFieldName("body")
		if body == nil {
			return
		}
		if body.Type() == "statement_block" {
			f.Body = append(f.Body, l.tsBlock(body)...)
		} else {
			f.Body = append(f.Body, &ir.Return{X: l.tsExpr(body), Pos: pos(body)})
		}
	})
	l.class = saved
	return f
}

func (l *lowerer) tsClass(n *node) []ir.Stmt {
	nameNode := n.ChildByFieldName("name")
	name := "<class>"
	if nameNode != nil {
		name = l.text(nameNode)
	}
	saved := l.class
	l.class = ""
	c := l.newFunc(name, pos(n))
	c.Class, c.IsClass = name, true
	for _, h := range named(n) {
		if h.Type() != "class_heritage" {
			continue
		}
		for _, ext := range named(h) {
			if v := ext.ChildByFieldName("value"); ext.Type() == "extends_clause" && v != nil {
				c.Bases = append(c.Bases, l.tsExpr(v))
			}
		}
	}
	l.class = name
	var fieldInits []ir.Stmt
	var ctor *ir.Func
	l.enter(c, func() {
		// A method's decorators (@Post("/pay"), NestJS's and tsoa's
		// routes) come before it in the class body, or inside it.
		var decorators []ir.Expr
		for _, m := range named(n.ChildByFieldName("body")) {
			if m.Type() == "decorator" {
				decorators = append(decorators, l.decorator(m))
				continue
			}
			if init := l.classFieldInit(m); init != nil {
				fieldInits = append(fieldInits, init)
			}
			if name, _, static := classField(m); name != nil && !static {
				c.SetFieldType(l.text(name), l.tsNamedType(m.ChildByFieldName("type")))
			}
			if m.Type() == "method_definition" {
				mname := l.text(m.ChildByFieldName("name"))
				if mname == "constructor" {
					ctor = l.tsFunc(mname, m)
					c.Params, c.Body = ctor.Params, ctor.Body
					decorators = nil
					continue
				}
				f := l.tsFunc(mname, m)
				f.Private = privateMember(l, m)
				for _, d := range named(m) {
					if d.Type() == "decorator" {
						decorators = append(decorators, l.decorator(d))
					}
				}
				f.Decorators = append(f.Decorators, decorators...)
				if accessor(l, m) == "get" {
					// get key() {…}: read as an attribute, run at every
					// read, as Python's @property.
					f.Decorators = append(f.Decorators, &ir.Name{ID: "property", Pos: pos(m)})
				}
			}
			decorators = nil
			if fname, fn := classFieldFunc(l, m); fn != nil {
				l.tsFunc(fname, fn) // handle = async (job) => {…}: a method bound to the instance
			}
		}
		// Field initializers run before the constructor's body: private
		// api = new Stripe(…) is this.api = new Stripe(…) there.
		if len(fieldInits) > 0 {
			if ctor == nil {
				ctor = l.newFunc("constructor", pos(n))
			}
			ctor.Body = append(fieldInits, ctor.Body...)
			c.Body = ctor.Body
		}
	})
	l.class = saved
	return []ir.Stmt{&ir.FuncDef{Name: name, F: c}}
}

// classField is the name and value of a class field with a value
// (TypeScript's public_field_definition, JavaScript's field_definition),
// and whether it is static.
func classField(m *node) (name, value *node, static bool) {
	if m.Type() != "public_field_definition" && m.Type() != "field_definition" {
		return nil, nil, false
	}
	name = m.ChildByFieldName("name")
	if name == nil {
		name = m.ChildByFieldName("property")
	}
	for i := 0; i < int(m.ChildCount()); i++ {
		if m.Child(i).Type() == "static" { // an unnamed keyword token
			static = true
		}
	}
	return name, m.ChildByFieldName("value"), static
}

func isFunctionValue(v *node) bool {
	return v.Type() == "arrow_function" || v.Type() == "function_expression" || v.Type() == "function"
}

// classFieldFunc is the name and function of a class field whose value is
// an arrow function or function expression: code calls it as this.name,
// like a method.
func classFieldFunc(l *lowerer, m *node) (string, *node) {
	name, v, _ := classField(m)
	if name == nil || v == nil {
		return "", nil
	}
	if w := wrappedFunction(v); w != nil {
		v = w
	}
	if !isFunctionValue(v) {
		return "", nil
	}
	return l.text(name), v
}

// wrappedFunction is the one function a call hands to a wrapper, as a
// class field's value (pay = asyncHandler(async (req, res) => {…}),
// catchAsync, withAuth): what the wrapper returns calls it, so the field
// is that function as a method; nil for any other value.
func wrappedFunction(v *node) *node {
	if v.Type() != "call_expression" {
		return nil
	}
	var fn *node
	for _, a := range named(v.ChildByFieldName("arguments")) {
		if isFunctionValue(a) {
			if fn != nil {
				return nil // two functions: no single one the field stands for
			}
			fn = a
		}
	}
	return fn
}

// classFieldInit is an instance field with a value that is not a
// function, as the assignment this.name = value (a static field is the
// class's, not the instance's).
func (l *lowerer) classFieldInit(m *node) ir.Stmt {
	name, v, static := classField(m)
	if name == nil || v == nil || isFunctionValue(v) || wrappedFunction(v) != nil || static {
		return nil
	}
	return &ir.Assign{Target: &ir.Attr{X: &ir.Name{ID: "this", Pos: pos(m)}, Name: l.text(name), Pos: pos(name)}, Value: l.tsExpr(v), Pos: pos(m)}
}

func (l *lowerer) tsTarget(n *node) ir.Expr {
	if n == nil {
		return nil
	}
	switch n.Type() {
	case "object_pattern":
		p := &ir.Pattern{Pos: pos(n)}
		for _, c := range named(n) {
			switch c.Type() {
			case "shorthand_property_identifier_pattern":
				p.Keys = append(p.Keys, ir.KV{Key: l.text(c), Value: &ir.Name{ID: l.text(c), Pos: pos(c)}})
			case "pair_pattern":
				p.Keys = append(p.Keys, ir.KV{Key: unquoteKey(l.text(c.ChildByFieldName("key"))), Value: l.tsTarget(c.ChildByFieldName("value"))})
			case "object_assignment_pattern":
				left := c.ChildByFieldName("left")
				p.Keys = append(p.Keys, ir.KV{Key: l.text(left), Value: l.tsTarget(left)})
			case "rest_pattern":
				if cs := named(c); len(cs) > 0 {
					p.Elems = append(p.Elems, l.tsTarget(cs[0]))
				}
			}
		}
		return p
	case "array_pattern":
		p := &ir.Pattern{Pos: pos(n)}
		for _, c := range named(n) {
			p.Elems = append(p.Elems, l.tsTarget(c))
		}
		return p
	case "assignment_pattern":
		return l.tsTarget(n.ChildByFieldName("left"))
	case "rest_pattern":
		if cs := named(n); len(cs) > 0 {
			return l.tsTarget(cs[0])
		}
	case "shorthand_property_identifier_pattern":
		return &ir.Name{ID: l.text(n), Pos: pos(n)}
	}
	return l.tsExpr(n)
}

func unquoteKey(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') {
		return s[1 : len(s)-1]
	}
	return s
}

func (l *lowerer) tsExpr(n *node) ir.Expr {
	if n == nil {
		return nil
	}
	p := pos(n)
	switch n.Type() {
	case "identifier", "shorthand_property_identifier", "this", "super", "property_identifier":
		return &ir.Name{ID: l.text(n), Pos: p}
	case "undefined", "null":
		return &ir.Lit{Kind: "none", Pos: p}
	case "true", "false":
		return &ir.Lit{Kind: "bool", Value: l.text(n), Pos: p}
	case "number":
		t := l.text(n)
		kind := "int"
		if strings.ContainsAny(t, ".") && !strings.HasPrefix(t, "0x") {
			kind = "float"
		}
		return &ir.Lit{Kind: kind, Value: t, Pos: p}
	case "string":
		var b strings.Builder
		for _, c := range named(n) {
			b.WriteString(l.text(c))
		}
		return &ir.Lit{Kind: "str", Value: b.String(), Pos: p}
	case "template_string":
		s := &ir.Str{Kind: "template", Pos: p}
		subst := false
		for _, c := range named(n) {
			switch c.Type() {
			case "template_substitution":
				subst = true
				if cs := named(c); len(cs) > 0 {
					s.Parts = append(s.Parts, l.tsExpr(cs[0]))
				}
			case "string_fragment", "escape_sequence":
				s.Parts = append(s.Parts, &ir.Lit{Kind: "str", Value: l.text(c), Pos: pos(c)})
			}
		}
		if !subst {
			t := l.text(n)
			return &ir.Lit{Kind: "str", Value: t[1 : len(t)-1], Pos: p}
		}
		return s
	case "member_expression":
		prop := n.ChildByFieldName("property")
		return &ir.Attr{X: l.tsExpr(n.ChildByFieldName("object")), Name: l.text(prop), Pos: pos(prop)}
	case "subscript_expression":
		ix := &ir.Index{X: l.tsExpr(n.ChildByFieldName("object")), Key: l.tsExpr(n.ChildByFieldName("index")), Pos: p}
		if lit, ok := ix.Key.(*ir.Lit); ok && lit.Kind == "str" {
			ix.KeyStr = lit.Value
		}
		return ix
	case "call_expression":
		if mod, ok := l.requireOf(n); ok {
			local := "require:" + mod
			l.file.Imports = append(l.file.Imports, ir.Import{Local: local, Module: mod})
			return &ir.Name{ID: local, Pos: p}
		}
		return l.tsCall(n, n.ChildByFieldName("function"), false)
	case "new_expression":
		return l.tsCall(n, n.ChildByFieldName("constructor"), true)
	case "as_expression":
		// new Proxy({} as Stripe, …) as Stripe: the value is declared an
		// instance of the class the type names, as a parameter can be.
		if kids := named(n); len(kids) == 2 {
			switch kids[1].Type() {
			case "type_identifier", "nested_type_identifier":
				return &ir.Binary{Op: "as", L: l.tsExpr(kids[0]), R: dottedExpr(l.text(kids[1]), pos(kids[1])), Pos: p}
			}
		}
		return l.tsExpr(named(n)[0])
	case "await_expression", "parenthesized_expression", "satisfies_expression", "non_null_expression", "type_assertion", "spread_element":
		for _, c := range named(n) {
			switch c.Type() {
			case "type_annotation", "type_identifier", "predefined_type", "generic_type", "type_arguments", "object_type", "union_type":
				continue
			}
			return l.tsExpr(c)
		}
		return nil
	case "binary_expression":
		op := l.text(n.ChildByFieldName("operator"))
		a, b := l.tsExpr(n.ChildByFieldName("left")), l.tsExpr(n.ChildByFieldName("right"))
		if op == "+" && (isStringy(a) || isStringy(b)) {
			return concat(p, a, b)
		}
		return &ir.Binary{Op: op, L: a, R: b, Pos: p}
	case "ternary_expression":
		// One of the two branches.
		return &ir.Binary{Op: "?:", L: l.tsExpr(n.ChildByFieldName("consequence")), R: l.tsExpr(n.ChildByFieldName("alternative")), Pos: p}
	case "object":
		d := &ir.Dict{Pos: p}
		for _, c := range named(n) {
			switch c.Type() {
			case "pair":
				k := c.ChildByFieldName("key")
				kv := ir.KV{Value: l.tsExpr(c.ChildByFieldName("value"))}
				switch k.Type() {
				case "computed_property_name":
					if cs := named(k); len(cs) > 0 {
						kx := l.tsExpr(cs[0])
						if lit, ok := kx.(*ir.Lit); ok && lit.Kind == "str" {
							kv.Key = lit.Value
						} else {
							kv.KeyX = kx
						}
					}
				default:
					kv.Key = unquoteKey(l.text(k))
				}
				d.Entries = append(d.Entries, kv)
			case "shorthand_property_identifier":
				d.Entries = append(d.Entries, ir.KV{Key: l.text(c), Value: &ir.Name{ID: l.text(c), Pos: pos(c)}})
			case "method_definition":
				// { async charge(p) {…} }: a service written as an
				// object literal, its methods the members' values.
				name := unquoteKey(l.text(c.ChildByFieldName("name")))
				f := l.tsFunc(name, c)
				f.Member = true
				d.Entries = append(d.Entries, ir.KV{Key: name, Value: &ir.Lambda{F: f, Pos: pos(c)}})
			case "spread_element":
				if cs := named(c); len(cs) > 0 {
					d.Spreads = append(d.Spreads, l.tsExpr(cs[0]))
				}
			}
		}
		return d
	case "array":
		lst := &ir.List{Pos: p}
		for _, c := range named(n) {
			lst.Elems = append(lst.Elems, l.tsExpr(c))
		}
		return lst
	case "arrow_function", "function_expression", "function", "generator_function":
		name := "<lambda>"
		return &ir.Lambda{F: l.tsFunc(name, n), Pos: p}
	case "class":
		l.tsClass(n)
		return &ir.Other{Pos: p}
	case "comment", "type_annotation", "type_arguments":
		return nil
	}
	return l.other(n, l.tsExpr)
}

func (l *lowerer) tsCall(n, fn *node, isNew bool) ir.Expr {
	p := pos(n)
	c := &ir.Call{Fun: l.tsExpr(fn), New: isNew, Pos: p}
	if args := n.ChildByFieldName("arguments"); args != nil {
		if args.Type() == "template_string" {
			c.Args = append(c.Args, l.tsExpr(args))
		} else {
			for _, a := range named(args) {
				if a.Type() == "comment" {
					continue
				}
				if a.Type() == "spread_element" {
					c.MarkSpread(len(c.Args))
				}
				c.Args = append(c.Args, l.tsExpr(a))
			}
		}
	}
	if at, ok := c.Fun.(*ir.Attr); ok && at.Name == "join" && len(c.Args) <= 1 {
		return &ir.Str{Kind: "join", Parts: append([]ir.Expr{at.X}, c.Args...), Pos: p}
	}
	return c
}

// accessor is "get" or "set" for a getter or setter method, else "".
func accessor(l *lowerer, m *node) string {
	for i := 0; i < int(m.ChildCount()); i++ {
		c := m.Child(i)
		if c == nil || c == m.ChildByFieldName("name") {
			break
		}
		if t := l.text(c); t == "get" || t == "set" {
			return t
		}
	}
	return ""
}

// exportsDefault reports an export statement with the default keyword.
func exportsDefault(l *lowerer, n *node) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); c != nil && l.text(c) == "default" {
			return true
		}
	}
	return false
}

// tsNamedType is the class a parameter's type annotation names (: Stripe,
// : Stripe.Stripe), as an expression; nil for any other type.
func (l *lowerer) tsNamedType(ann *node) ir.Expr {
	if ann == nil || ann.Type() != "type_annotation" || len(named(ann)) != 1 {
		return nil
	}
	t := named(ann)[0]
	if t.Type() == "generic_type" && len(named(t)) > 0 {
		t = named(t)[0] // Repository<Payout>: the class, its type arguments aside
	}
	switch t.Type() {
	case "type_identifier", "nested_type_identifier":
		return dottedExpr(l.text(t), pos(t))
	}
	return nil
}

// dottedExpr is a.b.C as names and attributes.
func dottedExpr(s string, at ir.Pos) ir.Expr {
	parts := strings.Split(s, ".")
	var x ir.Expr = &ir.Name{ID: strings.TrimSpace(parts[0]), Pos: at}
	for _, p := range parts[1:] {
		x = &ir.Attr{X: x, Name: strings.TrimSpace(p), Pos: at}
	}
	return x
}

// opensWithDirective reports whether the program's prologue (the string
// statements before any other) holds directive ('use server').
func (l *lowerer) opensWithDirective(root *node, directive string) bool {
	for _, st := range named(root) {
		switch {
		case st.Type() == "comment":
			continue
		case st.Type() != "expression_statement" || len(named(st)) != 1 || named(st)[0].Type() != "string":
			return false
		}
		if strings.Trim(l.text(named(st)[0]), `'"`) == directive {
			return true
		}
	}
	return false
}

// withoutBreaks drops the breaks of a switch case: they leave the switch,
// not the loop around it. A nested loop keeps its own.
func withoutBreaks(ss []ir.Stmt) []ir.Stmt {
	out := ss[:0:0]
	for _, s := range ss {
		switch s := s.(type) {
		case *ir.Break:
			continue
		case *ir.If:
			cp := *s
			cp.Then, cp.Else = withoutBreaks(s.Then), withoutBreaks(s.Else)
			out = append(out, &cp)
			continue
		case *ir.Try:
			cp := *s
			cp.Body, cp.Handlers, cp.Finally = withoutBreaks(s.Body), withoutBreaks(s.Handlers), withoutBreaks(s.Finally)
			out = append(out, &cp)
			continue
		}
		out = append(out, s)
	}
	return out
}
