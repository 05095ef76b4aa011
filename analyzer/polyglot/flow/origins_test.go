package flow

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

// TestMergeOriginsOrderFree: values merge their fields in map order, so
// the origins a value keeps past the cap must not depend on the order
// the merges come in (evzone gave 16 findings on one run and 17 on the
// next before).
func TestMergeOriginsOrderFree(t *testing.T) {
	var all []*origin
	for i := range 3 * maxOrigins {
		all = append(all, &origin{kind: "random", source: fmt.Sprint("draw", i), file: "a.ts", pos: ir.Pos{Line: 100 - i, Col: 1}})
	}
	var want []*origin
	for run := range 50 {
		order := slices.Clone(all)
		r := rand.New(rand.NewPCG(uint64(run), 7))
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var got []*origin
		for i := 0; i < len(order); i += 1 + run%5 {
			got = mergeOrigins(got, order[i:min(i+1+run%5, len(order))])
		}
		slices.SortFunc(got, compareOrigins)
		if len(got) != maxOrigins {
			t.Fatalf("run %d kept %d origins, want the cap %d", run, len(got), maxOrigins)
		}
		if run == 0 {
			want = got
		} else if !slices.Equal(got, want) {
			t.Fatalf("run %d kept another set of origins than run 0", run)
		}
	}
}
