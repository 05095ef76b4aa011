package keyflow

// Names by value: a header or key name held in a constant, a package
// variable assigned once, or the result of http.CanonicalHeaderKey.
// Names are compared normalized (case and punctuation dropped), so a case
// fold resolves to its argument.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// stringValue returns the value of a string expression that names
// something.
func (f *Func) stringValue(e ast.Expr) (string, bool) { return f.resolveString(e, 0) }

func (f *Func) resolveString(e ast.Expr, depth int) (string, bool) {
	if depth > 6 {
		return "", false
	}
	if s, ok := constString(f.info, e); ok {
		return s, true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if init, ok := f.names[f.info.ObjectOf(x)]; ok {
			return f.resolveString(init, depth+1)
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			a, ok1 := f.resolveString(x.X, depth+1)
			b, ok2 := f.resolveString(x.Y, depth+1)
			if ok1 && ok2 {
				return a + b, true
			}
		}
	case *ast.CallExpr:
		if fn := Callee(f.info, x); fn != nil && fn.Pkg() != nil && len(x.Args) == 1 && keymodel.FoldsCase(fn.Pkg().Path(), fn.Name()) {
			return f.resolveString(x.Args[0], depth+1)
		}
	}
	return "", false
}

// packageNames maps the package-level variables that are initialized in
// their declaration and never assigned afterwards to their initializer.
func packageNames(pass *analysis.Pass) map[types.Object]ast.Expr {
	vars := map[types.Object]ast.Expr{}
	assigned := map[types.Object]bool{}
	for _, file := range pass.Files {
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Names) != len(vs.Values) {
					continue
				}
				for i, name := range vs.Names {
					if obj := pass.TypesInfo.Defs[name]; obj != nil {
						vars[obj] = vs.Values[i]
					}
				}
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
						assigned[pass.TypesInfo.Uses[id]] = true
					}
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
					assigned[pass.TypesInfo.Uses[id]] = true
				}
			}
			return true
		})
	}
	for obj := range assigned {
		delete(vars, obj)
	}
	return vars
}
