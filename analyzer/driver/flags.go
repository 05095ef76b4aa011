package driver

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/internal/suggest"
)

// CheckAnalyzerFlags checks flags meant for the vet tool ("-NAME",
// "-NAME.FLAG=VALUE") against the analyzers, so a typo is one line here
// instead of go vet's usage text. Values are checked by the tool itself.
func CheckAnalyzerFlags(analyzers []*analysis.Analyzer, flags []string) error {
	known := map[string]bool{} // name -> boolean flag
	for _, a := range analyzers {
		known[a.Name] = true
		a.Flags.VisitAll(func(f *flag.Flag) {
			b, ok := f.Value.(interface{ IsBoolFlag() bool })
			known[a.Name+"."+f.Name] = ok && b.IsBoolFlag()
		})
	}
	for _, raw := range flags {
		if !strings.HasPrefix(raw, "-") {
			return fmt.Errorf("%q must start with -, e.g. -IDEM001.keypattern=REGEXP", raw)
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(raw, "-"), "=")
		isBool, ok := known[name]
		if !ok {
			return fmt.Errorf("unknown analyzer flag -%s%s; analyzer flags look like -IDEM001.keypattern=REGEXP", name, didYouMean(name, known))
		}
		if !isBool && !hasValue {
			return fmt.Errorf("-%s needs a value: -%s=VALUE", name, name)
		}
	}
	return nil
}

// didYouMean suggests the known name closest to name, when one is close.
func didYouMean(name string, known map[string]bool) string {
	names := slices.Sorted(maps.Keys(known)) // a fixed order for ties
	if s := suggest.Closest(name, names); s != "" {
		return " (did you mean -" + s + "?)"
	}
	return ""
}
