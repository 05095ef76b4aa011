package wholepayload

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/internal/keyflow"
)

// Analyzer reports whole structs or maps serialized into a key (IDEM004).
var Analyzer = &analysis.Analyzer{
	Name:     "wholepayload",
	Doc:      "report whole structs or maps serialized into an idempotency key (IDEM004)",
	URL:      "https://github.com/idemcheck/idemcheck#idem004",
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
		for _, sink := range f.Sinks {
			f.Walk(sink.Value, func(e ast.Expr) bool {
				call, ok := e.(*ast.CallExpr)
				if !ok {
					return true
				}
				args, via, ok := keyflow.Serializer(f.Info(), call)
				if !ok {
					return true
				}
				for _, a := range args {
					if what := keyflow.WholePayload(f, a); what != "" {
						rep.Report(a.Pos(), fmt.Sprintf(
							"%s serializes the whole %s into the idempotency key (%s): a new field changes every key; use an explicit field list",
							via, what, sink.What))
					}
				}
				return true
			})
		}
	}
	return nil, nil
}
