package tenantscope

import (
	"go/constant"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/sqlquery"
)

// constraints maps the names of unique and primary key constraints defined
// in the package's constant strings (CREATE TABLE, ALTER TABLE … ADD
// CONSTRAINT) to their columns. A name defined twice with different
// columns is left out: it cannot be resolved without guessing.
func constraints(pass *analysis.Pass) map[string][]string {
	defs := map[string]map[string][]string{} // name → joined columns → columns
	for _, tv := range pass.TypesInfo.Types {
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			continue
		}
		s := constant.StringVal(tv.Value)
		if !strings.Contains(strings.ToLower(s), "constraint") {
			continue
		}
		for _, c := range sqlquery.NamedConstraints(s) {
			if defs[c.Name] == nil {
				defs[c.Name] = map[string][]string{}
			}
			defs[c.Name][strings.Join(c.Columns, ",")] = c.Columns
		}
	}
	out := map[string][]string{}
	for name, byCols := range defs {
		if len(byCols) != 1 {
			continue
		}
		keys := make([]string, 0, 1)
		for k := range byCols {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out[name] = byCols[keys[0]]
	}
	return out
}
