package tenantscope

import (
	"go/constant"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/sqlquery"
)

// upsertConflict matches, in normalized SQL, an insert with a conflict
// target and a conflict action: insert into T (…) … on conflict (c1, c2)
// [where …] do update|nothing, or on conflict on constraint C do
// update|nothing. An ON CONFLICT without a target (any constraint) is not
// matched: it names no key.
var upsertConflict = regexp.MustCompile(`\binsert\s+into\s+([\w.]+)\b.*?\bon\s+conflict\s*(?:\(([^)]*)\)\s*(?:where\s+.*?)?|on\s+constraint\s+([\w.$]+)\s*)\bdo\s+(update|nothing)\b`)

var returningWord = regexp.MustCompile(`\breturning\b`)

// upsert is an INSERT … ON CONFLICT (cols) or ON CONSTRAINT name, with
// DO UPDATE or DO NOTHING.
type upsert struct {
	table      string
	conflict   []string // the conflict target's columns; nil when named by constraint
	constraint string   // the constraint named by ON CONSTRAINT, or ""
	action     string   // "update" or "nothing"
	returning  bool
}

// upserts returns the upserts of a normalized statement.
func upserts(stmt string) []upsert {
	var out []upsert
	for _, m := range upsertConflict.FindAllStringSubmatch(stmt, -1) {
		u := upsert{table: lastPart(m[1]), constraint: lastPart(m[3]), action: m[4], returning: returningWord.MatchString(stmt)}
		if u.constraint == "" {
			u.conflict = columnList(m[2])
		}
		out = append(out, u)
	}
	return out
}

// columnList reads a parenthesized list of index columns. A column may
// carry a collation or an operator class: keep its name.
func columnList(s string) []string {
	var cols []string
	for _, c := range strings.Split(s, ",") {
		if f := strings.Fields(c); len(f) > 0 {
			cols = append(cols, lastPart(strings.Trim(f[0], "()")))
		}
	}
	return cols
}

func lastPart(s string) string {
	if i := strings.LastIndex(s, "."); i >= 0 {
		return s[i+1:]
	}
	return s
}

// namedConstraint matches, in normalized DDL, a named unique or primary
// key constraint with its columns: constraint C unique [nulls [not]
// distinct] (c1, c2), constraint C primary key (c1, c2).
var namedConstraint = regexp.MustCompile(`\bconstraint\s+([\w.$]+)\s+(?:unique(?:\s+nulls\s+(?:not\s+)?distinct)?|primary\s+key)\s*\(([^)]*)\)`)

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
		for _, m := range namedConstraint.FindAllStringSubmatch(sqlquery.Normalize(s), -1) {
			name, cols := lastPart(m[1]), columnList(m[2])
			if defs[name] == nil {
				defs[name] = map[string][]string{}
			}
			defs[name][strings.Join(cols, ",")] = cols
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
