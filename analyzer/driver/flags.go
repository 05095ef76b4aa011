package driver

import (
	"flag"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/internal/suggest"
)

// CheckAnalyzerFlags checks flags meant for the vet tool ("-NAME",
// "-NAME.FLAG=VALUE") against the analyzers, so a typo or a bad value is
// one line here instead of go vet's usage text, repeated for every package.
func CheckAnalyzerFlags(analyzers []*analysis.Analyzer, flags []string) error {
	known := map[string]bool{}        // name -> boolean flag
	values := map[string]flag.Value{} // name -> the flag's value
	for _, a := range analyzers {
		known[a.Name] = true
		a.Flags.VisitAll(func(f *flag.Flag) {
			b, ok := f.Value.(interface{ IsBoolFlag() bool })
			known[a.Name+"."+f.Name] = ok && b.IsBoolFlag()
			values[a.Name+"."+f.Name] = f.Value
		})
	}
	for _, raw := range flags {
		if !strings.HasPrefix(raw, "-") {
			return fmt.Errorf("%q must start with -, e.g. -IDEM001.keypattern=REGEXP", raw)
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(raw, "-"), "=")
		isBool, ok := known[name]
		if !ok {
			return fmt.Errorf("unknown analyzer flag -%s%s; analyzer flags look like -IDEM001.keypattern=REGEXP", name, didYouMean(name, known))
		}
		if !isBool && !hasValue {
			return fmt.Errorf("-%s needs a value: -%s=VALUE", name, name)
		}
		if v, ok := values[name]; ok && hasValue {
			if err := trySet(v, value); err != nil {
				return fmt.Errorf("%s: %v: fix the value", raw, err)
			}
		}
	}
	return nil
}

// trySet reports whether value would be accepted by a flag whose Value is
// v, by setting a fresh zero Value of the same type: the analyzers' flags
// are package variables, which checking must not change (nor race with a
// concurrent reader). A Value that is not a pointer, or whose zero value
// cannot be set (flag.Func's), is left to the vet tool to check.
func trySet(v flag.Value, value string) (err error) {
	t := reflect.TypeOf(v)
	if t.Kind() != reflect.Pointer {
		return nil
	}
	fresh, ok := reflect.New(t.Elem()).Interface().(flag.Value)
	if !ok {
		return nil
	}
	defer func() {
		if recover() != nil {
			err = nil
		}
	}()
	return fresh.Set(value)
}

// didYouMean suggests the known name closest to name, when one is close.
func didYouMean(name string, known map[string]bool) string {
	names := slices.Sorted(maps.Keys(known)) // a fixed order for ties
	if s := suggest.Closest(name, names); s != "" {
		return " (did you mean -" + s + "?)"
	}
	return ""
}
