package wholepayload

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// Analyzer reports whole structs or maps serialized into a key (IDEM004).
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
	// Helpers that serialize a whole payload into their result count at
	// their call sites: either a payload they read themselves, or the
	// argument the caller passes for the parameter they serialize.
	helpers := pkg.Summarize(func(f *keyflow.Func, known map[*types.Func]string) string {
		first := ""
		for _, r := range f.Results() {
			findWhole(f, r, known, true, func(_ token.Pos, h hit) {
				if first == "" {
					first = h.encode()
				}
			})
		}
		return first
	})
	for _, f := range pkg.WithSinks() {
		for _, sink := range f.Sinks {
			findWhole(f, sink.Value, helpers, false, func(pos token.Pos, h hit) {
				rep.Report(pos, fmt.Sprintf(
					"%s serializes the whole %s into the idempotency key (%s): a new field changes every key; use an explicit field list",
					h.via, h.what, sink.What))
			})
		}
	}
	return nil, nil
}

// hit is a whole payload serialized on the way to a key: what it is and
// who serializes it, or, inside a helper, the parameter it comes from.
type hit struct {
	via, what string
	param     int // >= 0: the helper serializes its parameter #param
}

func (h hit) encode() string { return fmt.Sprintf("%d\x00%s\x00%s", h.param, h.via, h.what) }

func decode(s string) hit {
	parts := strings.SplitN(s, "\x00", 3)
	n, _ := strconv.Atoi(parts[0])
	return hit{param: n, via: parts[1], what: parts[2]}
}

// findWhole walks back from root and calls found for each whole payload
// serialized into it, directly or through a summarized helper.
func findWhole(f *keyflow.Func, root ast.Expr, helpers map[*types.Func]string, inHelper bool, found func(token.Pos, hit)) {
	info := f.Info()
	f.Walk(root, func(e ast.Expr) bool {
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn := keyflow.Callee(info, call); fn != nil && helpers[fn] != "" {
			h := decode(helpers[fn])
			h.via += " (in " + fn.Name() + ")"
			param := h.param
			h.param = -1
			if param < 0 {
				found(call.Pos(), h)
			} else if param < len(call.Args) {
				arg := call.Args[param]
				if what := payloadOrParam(f, arg, &h, inHelper); what != "" {
					h.what = what
					found(arg.Pos(), h)
				}
			}
		}
		args, via, ok := keyflow.Serializer(info, call)
		if !ok {
			return true
		}
		for _, a := range args {
			h := hit{via: via, param: -1}
			if what := payloadOrParam(f, a, &h, inHelper); what != "" {
				h.what = what
				found(a.Pos(), h)
			}
		}
		return true
	})
}

// payloadOrParam describes a whole payload; for a parameter of a helper it
// also records which one, so the caller's argument decides.
func payloadOrParam(f *keyflow.Func, e ast.Expr, h *hit, inHelper bool) string {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && inHelper {
		if i := f.ParamIndex(id); i >= 0 {
			h.param = i // even an `any` parameter: the caller's argument decides
			return "parameter " + id.Name
		}
	}
	return keyflow.WholePayload(f, e)
}
