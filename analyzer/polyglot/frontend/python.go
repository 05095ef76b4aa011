//go:build cgo

package frontend

import (
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

func (l *lowerer) pyBlock(n *node) []ir.Stmt {
	var out []ir.Stmt
	for _, c := range named(n) {
		out = append(out, l.pyStmt(c)...)
	}
	return out
}

func (l *lowerer) pyStmt(n *node) []ir.Stmt {
	switch n.Type() {
	case "expression_statement":
		var out []ir.Stmt
		for _, c := range named(n) {
			out = append(out, l.pyExprStmt(c)...)
		}
		return out
	case "break_statement":
		return []ir.Stmt{&ir.Break{}}
	case "return_statement":
		r := &ir.Return{Pos: pos(n)}
		if cs := named(n); len(cs) > 0 {
			r.X = l.pyExpr(cs[0])
		}
		return []ir.Stmt{r}
	case "if_statement":
		return []ir.Stmt{l.pyIf(n.ChildByFieldName("condition"), n.ChildByFieldName("consequence"), fieldAll(n, "alternative"))}
	case "for_statement":
		head := &ir.Assign{Target: l.pyTarget(n.ChildByFieldName("left")), Value: &ir.Index{X: l.pyExpr(n.ChildByFieldName("right")), Pos: pos(n)}, Pos: pos(n)}
		return []ir.Stmt{&ir.Loop{Head: []ir.Stmt{head}, Body: l.pyBlock(n.ChildByFieldName("body")), Pos: pos(n)}}
	case "while_statement":
		return []ir.Stmt{&ir.Loop{Head: []ir.Stmt{&ir.ExprStmt{X: l.pyExpr(n.ChildByFieldName("condition"))}}, Body: l.pyBlock(n.ChildByFieldName("body")), Pos: pos(n)}}
	case "try_statement":
		t := &ir.Try{Body: l.pyBlock(n.ChildByFieldName("body"))}
		for _, c := range named(n) {
			switch c.Type() {
			case "except_clause", "except_group_clause", "else_clause":
				for _, cc := range named(c) {
					if cc.Type() == "block" {
						t.Handlers = append(t.Handlers, l.pyBlock(cc)...)
					}
				}
			case "finally_clause":
				for _, cc := range named(c) {
					if cc.Type() == "block" {
						t.Finally = append(t.Finally, l.pyBlock(cc)...)
					}
				}
			}
		}
		return []ir.Stmt{t}
	case "with_statement":
		var out []ir.Stmt
		for _, c := range named(n) {
			if c.Type() != "with_clause" {
				continue
			}
			for _, item := range named(c) {
				v := item.ChildByFieldName("value")
				if v == nil {
					continue
				}
				if v.Type() == "as_pattern" {
					cs := named(v)
					alias := v.ChildByFieldName("alias")
					if len(cs) > 0 && alias != nil {
						tgt := alias
						if tc := named(alias); alias.Type() == "as_pattern_target" && len(tc) > 0 {
							tgt = tc[0]
						}
						out = append(out, &ir.Assign{Target: l.pyTarget(tgt), Value: l.pyExpr(cs[0]), Pos: pos(v)})
						continue
					}
				}
				out = append(out, &ir.ExprStmt{X: l.pyExpr(v)})
			}
		}
		return append(out, l.pyBlock(n.ChildByFieldName("body"))...)
	case "match_statement":
		subj := l.pyExpr(n.ChildByFieldName("subject"))
		var cases [][]ir.Stmt
		for _, b := range fieldAll(n, "body") {
			for _, cc := range named(b) {
				if cc.Type() == "case_clause" {
					cases = append(cases, l.pyBlock(cc.ChildByFieldName("consequence")))
				}
			}
		}
		return []ir.Stmt{chain(subj, cases)}
	case "function_definition":
		return []ir.Stmt{l.pyFunc(n, nil)}
	case "class_definition":
		return l.pyClass(n, nil)
	case "decorated_definition":
		var decos []ir.Expr
		for _, c := range named(n) {
			if c.Type() == "decorator" {
				if cs := named(c); len(cs) > 0 {
					decos = append(decos, l.pyExpr(cs[0]))
				}
			}
		}
		def := n.ChildByFieldName("definition")
		if def == nil {
			return nil
		}
		if def.Type() == "class_definition" {
			return l.pyClass(def, decos)
		}
		return []ir.Stmt{l.pyFunc(def, decos)}
	case "import_statement", "import_from_statement", "future_import_statement":
		l.pyImport(n)
		return nil
	case "global_statement":
		for _, c := range named(n) {
			if c.Type() == "identifier" {
				l.cur.Globals = append(l.cur.Globals, l.text(c))
			}
		}
		return nil
	case "block":
		return l.pyBlock(n)
	}
	return nil
}

// chain lowers match/switch cases into a chain of Ifs on the subject.
func chain(subj ir.Expr, cases [][]ir.Stmt) ir.Stmt {
	if len(cases) == 0 {
		return &ir.ExprStmt{X: subj}
	}
	return &ir.If{Cond: subj, Then: cases[0], Else: []ir.Stmt{chain(subj, cases[1:])}}
}

// arm is one arm of a switch: the values its case names (those of empty
// cases falling through to it included), or the default.
type arm struct {
	values    []ir.Expr
	body      []ir.Stmt
	isDefault bool
}

// switchChain lowers a switch to a chain of ifs whose conditions compare
// the subject with each arm's values (subj == 'a' || subj == 'b'), so the
// flow engine knows which arm a constant subject takes. The default goes
// last, where the chain's conditions have all failed, unless empty cases
// fall through to it; then it keeps its place with the bare subject as
// its condition, which says nothing of the value.
func switchChain(subj ir.Expr, arms []arm) ir.Stmt {
	var ordered []arm
	var last *arm
	for i := range arms {
		if arms[i].isDefault && len(arms[i].values) == 0 && last == nil {
			last = &arms[i]
			continue
		}
		ordered = append(ordered, arms[i])
	}
	var tail []ir.Stmt
	if last != nil {
		tail = last.body
	}
	for i := len(ordered) - 1; i >= 0; i-- {
		a := ordered[i]
		var cond ir.Expr = subj
		if !a.isDefault {
			cond = nil
			for _, v := range a.values {
				eq := &ir.Binary{Op: "==", L: subj, R: v}
				if cond == nil {
					cond = eq
				} else {
					cond = &ir.Binary{Op: "||", L: cond, R: eq}
				}
			}
			if cond == nil {
				cond = subj
			}
		}
		tail = []ir.Stmt{&ir.If{Cond: cond, Then: a.body, Else: tail}}
	}
	if len(tail) == 0 {
		return &ir.ExprStmt{X: subj}
	}
	if len(tail) == 1 {
		return tail[0]
	}
	return &ir.If{Cond: subj, Then: tail}
}

func (l *lowerer) pyIf(cond, then *node, alts []*node) ir.Stmt {
	s := &ir.If{Cond: l.pyExpr(cond), Then: l.pyBlock(then)}
	if len(alts) > 0 {
		a := alts[0]
		switch a.Type() {
		case "elif_clause":
			s.Else = []ir.Stmt{l.pyIf(a.ChildByFieldName("condition"), a.ChildByFieldName("consequence"), alts[1:])}
		case "else_clause":
			s.Else = l.pyBlock(a.ChildByFieldName("body"))
		}
	}
	return s
}

func (l *lowerer) pyExprStmt(n *node) []ir.Stmt {
	switch n.Type() {
	case "assignment":
		right := n.ChildByFieldName("right")
		targets := []*node{n.ChildByFieldName("left")}
		for right != nil && right.Type() == "assignment" {
			targets = append(targets, right.ChildByFieldName("left"))
			right = right.ChildByFieldName("right")
		}
		if right == nil {
			return nil // an annotation without a value
		}
		v := l.pyExpr(right)
		var out []ir.Stmt
		for _, t := range targets {
			out = append(out, &ir.Assign{Target: l.pyTarget(t), Value: v, Pos: pos(n)})
		}
		return out
	case "augmented_assignment":
		op := strings.TrimSuffix(l.text(n.ChildByFieldName("operator")), "=")
		return []ir.Stmt{&ir.Assign{Target: l.pyTarget(n.ChildByFieldName("left")), Value: l.pyExpr(n.ChildByFieldName("right")), Op: op, Pos: pos(n)}}
	}
	return []ir.Stmt{&ir.ExprStmt{X: l.pyExpr(n)}}
}

func (l *lowerer) pyTarget(n *node) ir.Expr {
	if n == nil {
		return nil
	}
	switch n.Type() {
	case "pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list":
		p := &ir.Pattern{Pos: pos(n)}
		for _, c := range named(n) {
			p.Elems = append(p.Elems, l.pyTarget(c))
		}
		return p
	case "list_splat_pattern", "parenthesized_expression":
		if cs := named(n); len(cs) > 0 {
			return l.pyTarget(cs[0])
		}
	}
	return l.pyExpr(n)
}

func (l *lowerer) pyParams(f *ir.Func, n *node) {
	for _, p := range named(n) {
		name := ""
		switch p.Type() {
		case "identifier":
			name = l.text(p)
		case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
			for _, c := range named(p) {
				if c.Type() == "identifier" {
					name = l.text(c)
					break
				}
			}
			if name == "" {
				for _, c := range named(p) {
					for _, cc := range named(c) {
						if cc.Type() == "identifier" {
							name = l.text(cc)
						}
					}
				}
			}
		case "default_parameter", "typed_default_parameter":
			if nn := p.ChildByFieldName("name"); nn != nil {
				name = l.text(nn)
			}
		default:
			continue
		}
		if name != "" {
			f.Params = append(f.Params, name)
			if t := p.ChildByFieldName("type"); t != nil && len(named(t)) == 1 {
				if c := optionalOf(named(t)[0]); c.Type() == "identifier" || c.Type() == "attribute" {
					f.SetParamType(name, l.pyExpr(c))
				}
			}
			if p.Type() == "dictionary_splat_pattern" || p.Type() == "typed_parameter" && len(named(p)) > 0 && named(p)[0].Type() == "dictionary_splat_pattern" {
				f.KwargsParam = name
			}
		}
	}
}

func (l *lowerer) pyFunc(n *node, decos []ir.Expr) ir.Stmt {
	name := l.text(n.ChildByFieldName("name"))
	f := l.newFunc(name, pos(n))
	f.Decorators = decos
	saved := l.class
	l.class = ""
	l.enter(f, func() {
		l.pyParams(f, n.ChildByFieldName("parameters"))
		f.Body = l.pyBlock(n.ChildByFieldName("body"))
	})
	l.class = saved
	return &ir.FuncDef{Name: name, F: f}
}

func (l *lowerer) pyClass(n *node, decos []ir.Expr) []ir.Stmt {
	name := l.text(n.ChildByFieldName("name"))
	c := l.newFunc(name, pos(n))
	c.Name, c.Class, c.IsClass, c.Decorators = name, name, true, decos
	if sup := n.ChildByFieldName("superclasses"); sup != nil {
		for _, b := range named(sup) {
			if b.Type() != "keyword_argument" {
				c.Bases = append(c.Bases, l.pyExpr(b))
			}
		}
	}
	saved := l.class
	l.class = name
	l.enter(c, func() {
		body := n.ChildByFieldName("body")
		for _, m := range named(body) {
			switch m.Type() {
			case "function_definition":
				l.pyFunc(m, nil)
			case "decorated_definition":
				if s := l.pyStmt(m); len(s) > 0 {
					_ = s
				}
			}
		}
	})
	l.class = saved
	return []ir.Stmt{&ir.FuncDef{Name: name, F: c}}
}

func (l *lowerer) pyImport(n *node) {
	switch n.Type() {
	case "import_statement":
		for _, c := range fieldAll(n, "name") {
			switch c.Type() {
			case "dotted_name":
				mod := l.text(c)
				l.file.Imports = append(l.file.Imports, ir.Import{Local: strings.Split(mod, ".")[0], Module: strings.Split(mod, ".")[0]})
				if strings.Contains(mod, ".") {
					l.file.Imports = append(l.file.Imports, ir.Import{Local: mod, Module: mod})
				}
			case "aliased_import":
				l.file.Imports = append(l.file.Imports, ir.Import{Local: l.text(c.ChildByFieldName("alias")), Module: l.text(c.ChildByFieldName("name"))})
			}
		}
	case "import_from_statement":
		mod := l.text(n.ChildByFieldName("module_name"))
		for _, c := range fieldAll(n, "name") {
			switch c.Type() {
			case "dotted_name":
				l.file.Imports = append(l.file.Imports, ir.Import{Local: l.text(c), Module: mod, Name: l.text(c)})
			case "aliased_import":
				l.file.Imports = append(l.file.Imports, ir.Import{Local: l.text(c.ChildByFieldName("alias")), Module: mod, Name: l.text(c.ChildByFieldName("name"))})
			}
		}
		for _, c := range named(n) {
			if c.Type() == "wildcard_import" {
				l.file.Imports = append(l.file.Imports, ir.Import{Local: "*", Module: mod, Name: "*"})
			}
		}
	}
}

func (l *lowerer) pyString(n *node) ir.Expr {
	var parts []ir.Expr
	interp := false
	var lit strings.Builder
	for _, c := range named(n) {
		switch c.Type() {
		case "interpolation":
			interp = true
			if e := c.ChildByFieldName("expression"); e != nil {
				parts = append(parts, l.pyExpr(e))
			}
		case "string_content", "escape_sequence":
			lit.WriteString(l.text(c))
			parts = append(parts, &ir.Lit{Kind: "str", Value: l.text(c), Pos: pos(c)})
		}
	}
	if !interp {
		return &ir.Lit{Kind: "str", Value: lit.String(), Pos: pos(n)}
	}
	return &ir.Str{Kind: "fstring", Parts: parts, Pos: pos(n)}
}

func (l *lowerer) pyExpr(n *node) ir.Expr {
	if n == nil {
		return nil
	}
	p := pos(n)
	switch n.Type() {
	case "identifier":
		return &ir.Name{ID: l.text(n), Pos: p}
	case "attribute":
		return &ir.Attr{X: l.pyExpr(n.ChildByFieldName("object")), Name: l.text(n.ChildByFieldName("attribute")), Pos: pos(n.ChildByFieldName("attribute"))}
	case "subscript":
		ix := &ir.Index{X: l.pyExpr(n.ChildByFieldName("value")), Pos: p}
		if s := n.ChildByFieldName("subscript"); s != nil {
			ix.Key = l.pyExpr(s)
			if lit, ok := ix.Key.(*ir.Lit); ok && lit.Kind == "str" {
				ix.KeyStr = lit.Value
			}
		}
		return ix
	case "call":
		return l.pyCall(n)
	case "string":
		return l.pyString(n)
	case "concatenated_string":
		s := &ir.Str{Kind: "concat", Pos: p}
		for _, c := range named(n) {
			s.Parts = append(s.Parts, l.pyExpr(c))
		}
		return s
	case "integer":
		return &ir.Lit{Kind: "int", Value: l.text(n), Pos: p}
	case "float":
		return &ir.Lit{Kind: "float", Value: l.text(n), Pos: p}
	case "true", "false":
		return &ir.Lit{Kind: "bool", Value: l.text(n), Pos: p}
	case "none":
		return &ir.Lit{Kind: "none", Pos: p}
	case "binary_operator":
		op := l.text(n.ChildByFieldName("operator"))
		a, b := l.pyExpr(n.ChildByFieldName("left")), l.pyExpr(n.ChildByFieldName("right"))
		switch {
		case op == "%" && isStringy(a):
			parts := []ir.Expr{a}
			if lst, ok := b.(*ir.List); ok {
				parts = append(parts, lst.Elems...)
			} else {
				parts = append(parts, b)
			}
			return &ir.Str{Kind: "percent", Parts: parts, Pos: p}
		case op == "+" && (isStringy(a) || isStringy(b)):
			return concat(p, a, b)
		}
		return &ir.Binary{Op: op, L: a, R: b, Pos: p}
	case "comparison_operator":
		// a == 'x', key is None: one operator between two operands is a
		// test the flow engine reads; a chain (a < b < c) stays opaque.
		xs, ops := named(n), fieldAll(n, "operators")
		if len(xs) == 2 && len(ops) == 1 {
			return &ir.Binary{Op: l.text(ops[0]), L: l.pyExpr(xs[0]), R: l.pyExpr(xs[1]), Pos: p}
		}
		return l.other(n, l.pyExpr)
	case "boolean_operator":
		return &ir.Binary{Op: l.text(n.ChildByFieldName("operator")), L: l.pyExpr(n.ChildByFieldName("left")), R: l.pyExpr(n.ChildByFieldName("right")), Pos: p}
	case "conditional_expression":
		// a if cond else b: one of the two, not the condition.
		if xs := named(n); len(xs) == 3 {
			return &ir.Binary{Op: "?:", L: l.pyExpr(xs[0]), R: l.pyExpr(xs[2]), Pos: p}
		}
	case "dictionary":
		d := &ir.Dict{Pos: p}
		for _, c := range named(n) {
			switch c.Type() {
			case "pair":
				k := l.pyExpr(c.ChildByFieldName("key"))
				kv := ir.KV{Value: l.pyExpr(c.ChildByFieldName("value"))}
				if lit, ok := k.(*ir.Lit); ok && lit.Kind == "str" {
					kv.Key = lit.Value
				} else {
					kv.KeyX = k
				}
				d.Entries = append(d.Entries, kv)
			case "dictionary_splat":
				if cs := named(c); len(cs) > 0 {
					d.Spreads = append(d.Spreads, l.pyExpr(cs[0]))
				}
			}
		}
		return d
	case "list", "tuple", "set", "expression_list":
		lst := &ir.List{Pos: p}
		for _, c := range named(n) {
			lst.Elems = append(lst.Elems, l.pyExpr(c))
		}
		return lst
	case "parenthesized_expression", "await", "list_splat", "dictionary_splat", "keyword_separator":
		if cs := named(n); len(cs) > 0 {
			return l.pyExpr(cs[0])
		}
		return nil
	case "lambda":
		f := l.newFunc("<lambda>", p)
		l.enter(f, func() {
			if ps := n.ChildByFieldName("parameters"); ps != nil {
				l.pyParams(f, ps)
			}
			f.Body = []ir.Stmt{&ir.Return{X: l.pyExpr(n.ChildByFieldName("body")), Pos: p}}
		})
		return &ir.Lambda{F: f, Pos: p}
	case "comment":
		return nil
	}
	return l.other(n, l.pyExpr)
}

func (l *lowerer) pyCall(n *node) ir.Expr {
	p := pos(n)
	fn := l.pyExpr(n.ChildByFieldName("function"))
	c := &ir.Call{Fun: fn, Pos: p}
	if args := n.ChildByFieldName("arguments"); args != nil {
		for _, a := range named(args) {
			switch a.Type() {
			case "keyword_argument":
				c.Kwargs = append(c.Kwargs, ir.KV{Key: l.text(a.ChildByFieldName("name")), Value: l.pyExpr(a.ChildByFieldName("value"))})
			case "dictionary_splat":
				if cs := named(a); len(cs) > 0 {
					c.Kwargs = append(c.Kwargs, ir.KV{Key: "**", Value: l.pyExpr(cs[0])})
				}
			case "comment":
			default:
				if a.Type() == "list_splat" {
					c.MarkSpread(len(c.Args))
				}
				c.Args = append(c.Args, l.pyExpr(a))
			}
		}
	}
	// String building by method: "…".format(…) and sep.join(parts).
	if at, ok := fn.(*ir.Attr); ok {
		switch {
		case at.Name == "format" && isStringy(at.X):
			s := &ir.Str{Kind: "format", Parts: append([]ir.Expr{at.X}, c.Args...), Pos: p}
			for _, kw := range c.Kwargs {
				s.Parts = append(s.Parts, kw.Value)
			}
			return s
		case at.Name == "join" && isStringy(at.X):
			return &ir.Str{Kind: "join", Parts: append([]ir.Expr{at.X}, c.Args...), Pos: p}
		}
	}
	return c
}

// optionalOf is the type an optional annotation allows besides None
// (Decimal | None, None | Decimal): the class a value of it has when it
// is there; t itself otherwise.
func optionalOf(t *node) *node {
	if t.Type() != "binary_operator" {
		return t
	}
	kids := named(t)
	if len(kids) != 2 {
		return t
	}
	switch {
	case kids[1].Type() == "none":
		return kids[0]
	case kids[0].Type() == "none":
		return kids[1]
	}
	return t
}
