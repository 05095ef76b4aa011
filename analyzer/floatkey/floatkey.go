package floatkey

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// Analyzer reports float values that reach an idempotency key (IDEM003).
var Analyzer = &analysis.Analyzer{
	Name:     Rule.ID,
	Doc:      Rule.Doc(),
	URL:      Rule.URL(),
	Requires: []*analysis.Analyzer{keyflow.Analyzer, keymodel.Analyzer},
	Run:      run,
}

func init() {
	keymodel.RegisterFlag(&Analyzer.Flags)
}

func run(pass *analysis.Pass) (any, error) {
	if !emit.Enabled(pass, Rule.ID) {
		return nil, nil
	}
	rep := emit.New(pass, Rule.ID)
	pkg := keyflow.Of(pass)
	caseVars := caseVariables(pass.TypesInfo)
	// Helpers whose result carries a float they read themselves (not one
	// passed in: that is reported at the caller's argument) count as a
	// float at their call sites: key := id + amountPart(order).
	helpers := pkg.Summarize(func(f *keyflow.Func, known map[*types.Func]string) string {
		first := ""
		inside := sinkSlices(f)
		for _, r := range f.Results() {
			findFloats(f, r, known, caseVars, func(_ token.Pos, e ast.Expr, what string) {
				if id, ok := unconvert(f.Info(), e).(*ast.Ident); ok && f.ParamIndex(id) >= 0 {
					return
				}
				if inside[e] {
					return // already reported at the helper's own key
				}
				if first == "" {
					first = what
				}
			})
		}
		return first
	})
	for _, f := range pkg.WithSinks() {
		keyArgs := pkg.KeyArgs(f)
		for _, sink := range f.Sinks {
			findFloats(f, sink.Value, helpers, caseVars, func(pos token.Pos, e ast.Expr, what string) {
				if p := keyArgs[e]; p != nil && keyflow.IsFloat(p.Type()) {
					return // the callee's float parameter is reported where it enters the key
				}
				rep.Report(pos, fmt.Sprintf(
					"%s reaches the idempotency key (%s): float digits differ between attempts; use integer cents",
					what, sink.What))
			})
		}
	}
	return nil, nil
}

// findFloats walks back from root and calls found for each place a float
// enters: a float-typed value, a struct with float fields serialized
// whole, or a call to a helper known to return float-derived text.
func findFloats(f *keyflow.Func, root ast.Expr, helpers map[*types.Func]string, caseVars map[types.Object]bool, found func(pos token.Pos, e ast.Expr, what string)) {
	info := f.Info()
	f.Walk(root, func(e ast.Expr) bool {
		if call, ok := e.(*ast.CallExpr); ok {
			if isFloatToInt(info, call) {
				return false // rounded to integer cents before the key
			}
			if fn := keyflow.Callee(info, call); fn != nil && helpers[fn] != "" {
				found(call.Pos(), call, helpers[fn]+" (through "+fn.Name()+")")
			}
			floatStructs(f, call, found)
		}
		t := info.TypeOf(e)
		if keyflow.IsFloat(t) {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok && caseVars[info.Uses[id]] {
				return false // one of the kinds a helper accepts from decoded JSON, not a float the key is made of
			}
			found(e.Pos(), e, fmt.Sprintf("%s value %s", t, render(e)))
			return false
		}
		return true
	})
}

// caseVariables are the variables of type switches' cases (switch t :=
// v.(type) { case float64: … }): a helper that formats whatever kind of
// value it is handed (firstString(input, "idempotencyKey")) meets a float
// only when the caller's data is one, which the key's own material does
// not say.
func caseVariables(info *types.Info) map[types.Object]bool {
	vars := map[types.Object]bool{}
	for node, obj := range info.Implicits {
		if _, ok := node.(*ast.CaseClause); ok {
			vars[obj] = true
		}
	}
	return vars
}

// sinkSlices returns the expressions on the backward slices of f's own
// keys: floats there are reported inside f.
func sinkSlices(f *keyflow.Func) map[ast.Expr]bool {
	seen := map[ast.Expr]bool{}
	for _, sink := range f.Sinks {
		f.Walk(sink.Value, func(e ast.Expr) bool {
			seen[e] = true
			return true
		})
	}
	return seen
}

// unconvert strips type conversions: float64(rate) is still rate.
func unconvert(info *types.Info, e ast.Expr) ast.Expr {
	for {
		e = ast.Unparen(e)
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return e
		}
		if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() {
			return e
		}
		e = call.Args[0]
	}
}

// isFloatToInt reports int64(x) conversions of a float.
func isFloatToInt(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType() && keyflow.IsInteger(tv.Type) && len(call.Args) == 1
}

// floatStructs finds a key struct or map with float fields serialized
// into the key (json.Marshal(keyInput) with Amount float64).
func floatStructs(f *keyflow.Func, call *ast.CallExpr, found func(token.Pos, ast.Expr, string)) {
	info := f.Info()
	args, via, ok := keyflow.Serializer(info, call)
	if !ok {
		return
	}
	for _, a := range args {
		if _, lit := ast.Unparen(a).(*ast.CompositeLit); lit {
			continue // its elements are walked one by one
		}
		if !f.Model().Disabled("IDEM004") && keyflow.WholePayload(f, a) != "" {
			continue // IDEM004 reports the whole payload; one finding is enough
		}
		if field := floatField(info.TypeOf(a), 0); field != "" {
			found(a.Pos(), a, fmt.Sprintf("float field %s, serialized by %s,", field, via))
		}
	}
}

// floatField returns the name of a float field (or map value) that
// encoding would put into the key, or "".
func floatField(t types.Type, depth int) string {
	if t == nil || depth > 3 {
		return ""
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			fld := u.Field(i)
			if !fld.Exported() || isOmitted(u.Tag(i)) {
				continue
			}
			if keyflow.IsFloat(fld.Type()) {
				return fld.Name()
			}
			if name := floatField(fld.Type(), depth+1); name != "" {
				return fld.Name() + "." + name
			}
		}
	case *types.Map:
		if keyflow.IsFloat(u.Elem()) {
			return "(map value)"
		}
	}
	return ""
}

func isOmitted(tag string) bool {
	return len(tag) >= 8 && (strings.Contains(tag, `json:"-"`) || strings.Contains(tag, `json:"-,`))
}

func render(e ast.Expr) string {
	s := types.ExprString(e)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
