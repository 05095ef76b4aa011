package floatkey

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
)

// Analyzer reports float values that reach an idempotency key (IDEM003).
var Analyzer = &analysis.Analyzer{
	Name:     "floatkey",
	Doc:      "report float32/float64 values that flow into an idempotency key (IDEM003)",
	URL:      "https://github.com/idemcheck/idemcheck#idem003",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

func init() {
	Analyzer.Flags.Var(&config.Flag{}, config.FlagName, config.FlagUsage)
}

func run(pass *analysis.Pass) (any, error) {
	if !emit.Enabled(Rule.ID) {
		return nil, nil
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	rep := emit.New(pass, Rule.ID)
	for _, f := range keyflow.Funcs(pass, ins) {
		info := f.Info()
		for _, sink := range f.Sinks {
			f.Walk(sink.Value, func(e ast.Expr) bool {
				if call, ok := e.(*ast.CallExpr); ok {
					if isFloatToInt(info, call) {
						return false // rounded to integer cents before the key
					}
					reportFloatStructs(rep, f, call, sink)
				}
				t := info.TypeOf(e)
				if keyflow.IsFloat(t) {
					rep.Report(e.Pos(), fmt.Sprintf(
						"%s value %s reaches the idempotency key (%s): float digits differ between attempts; use integer cents",
						t, render(e), sink.What))
					return false
				}
				return true
			})
		}
	}
	return nil, nil
}

// isFloatToInt reports int64(x) conversions of a float.
func isFloatToInt(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType() && keyflow.IsInteger(tv.Type) && len(call.Args) == 1
}

// reportFloatStructs reports a key struct or map with float fields
// serialized into the key (json.Marshal(keyInput) with Amount float64).
func reportFloatStructs(rep *emit.Reporter, f *keyflow.Func, call *ast.CallExpr, sink keyflow.Sink) {
	info := f.Info()
	args, via, ok := keyflow.Serializer(info, call)
	if !ok {
		return
	}
	for _, a := range args {
		if _, lit := ast.Unparen(a).(*ast.CompositeLit); lit {
			continue // its elements are walked one by one
		}
		if emit.Enabled("IDEM004") && keyflow.WholePayload(f, a) != "" {
			continue // IDEM004 reports the whole payload; one finding is enough
		}
		if field := floatField(info.TypeOf(a), 0); field != "" {
			rep.Report(a.Pos(), fmt.Sprintf(
				"%s serializes float field %s into the idempotency key (%s): float digits differ between attempts; use integer cents",
				via, field, sink.What))
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
