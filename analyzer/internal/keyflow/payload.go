package keyflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
)

// explicitName marks struct types made for the key itself.
var explicitName = regexp.MustCompile(`(?i)(key|fields|canon|idem|dedup|chave|campos|fingerprint|material)`)

// WholePayload describes e when it is a whole struct or map ("struct
// Order", "map[string]any") rather than an explicit field list: a literal
// written here, a value assembled field by field, an anonymous struct, or a
// struct type made for the key (named like keyInput or KeyFields). It
// returns "" for explicit lists and scalars. IDEM004 reports whole
// payloads; IDEM003 leaves their float fields to it.
func WholePayload(f *Func, e ast.Expr) string { return wholeValue(f, e, 0) }

// wholeValue describes e when it is a whole payload ("struct Order",
// "map[string]any"), or returns "" when it is an explicit field list or
// not a composite value at all.
func wholeValue(f *Func, e ast.Expr, depth int) string {
	if depth > 4 {
		return ""
	}
	info := f.Info()
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.CompositeLit:
		// Written here: an explicit list, unless it embeds a whole value.
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if w := wholeValue(f, el, depth+1); w != "" {
				return w
			}
		}
		return ""
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return wholeValue(f, x.X, depth+1)
		}
	case *ast.Ident:
		if defs, local := f.DefsOf(x); local && !f.IsParam(x) && len(defs) > 0 {
			for _, d := range defs {
				if w := wholeValue(f, d, depth+1); w != "" {
					return w
				}
			}
			if allBuiltHere(f, defs) {
				return ""
			}
		}
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && (id.Name == "make" || id.Name == "new") {
			if _, ok := info.Uses[id].(*types.Builtin); ok {
				return ""
			}
		}
	}
	return describe(info.TypeOf(e))
}

// allBuiltHere reports whether every assignment is a literal or make/new,
// i.e. the value is assembled field by field in this function.
func allBuiltHere(f *Func, defs []ast.Expr) bool {
	for _, d := range defs {
		switch x := ast.Unparen(d).(type) {
		case *ast.CompositeLit:
		case *ast.UnaryExpr:
			if _, ok := ast.Unparen(x.X).(*ast.CompositeLit); !ok || x.Op != token.AND {
				return false
			}
		case *ast.CallExpr:
			id, ok := ast.Unparen(x.Fun).(*ast.Ident)
			if !ok || (id.Name != "make" && id.Name != "new") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// describe names a payload type, or returns "" for scalars, explicit key
// types and types that serialize themselves (time.Time, decimal types).
func describe(t types.Type) string {
	if t == nil {
		return ""
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if selfEncoding(t) {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		n, named := t.(*types.Named)
		if !named {
			return "" // anonymous struct: the field list is the type
		}
		if explicitName.MatchString(n.Obj().Name()) || u.NumFields() == 0 {
			return ""
		}
		if obj := n.Obj(); obj.Pkg() != nil && obj.Parent() != obj.Pkg().Scope() {
			return "" // declared inside a function, next to the key it builds
		}
		return "struct " + n.Obj().Name()
	case *types.Map:
		return "map " + types.TypeString(t, qualifier)
	case *types.Slice:
		if w := describe(u.Elem()); w != "" {
			return "slice of " + w
		}
	case *types.Interface:
		return ""
	}
	return ""
}

func qualifier(p *types.Package) string { return p.Name() }

// selfEncoding reports types with their own text form (MarshalJSON,
// MarshalText, String): their encoding is a deliberate, stable choice.
func selfEncoding(t types.Type) bool {
	for _, name := range []string{"MarshalJSON", "MarshalText", "String"} {
		for _, tt := range []types.Type{t, types.NewPointer(t)} {
			obj, _, _ := types.LookupFieldOrMethod(tt, true, nil, name)
			if _, ok := obj.(*types.Func); ok {
				return true
			}
		}
	}
	return false
}
