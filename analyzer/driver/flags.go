package driver

import (
	"flag"
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
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
	best, bestDist := "", len(name)/2+1
	for k := range known {
		if d := editDistance(name, k); d < bestDist || d == bestDist && k < best {
			best, bestDist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean -" + best + "?)"
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
