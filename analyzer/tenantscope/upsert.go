package tenantscope

import (
	"regexp"
	"strings"
)

// upsertConflict matches, in normalized SQL, an insert whose conflict
// target is a column list and whose conflict action updates the existing
// row: insert into T (…) … on conflict (c1, c2) [where …] do update.
var upsertConflict = regexp.MustCompile(`\binsert\s+into\s+([\w.]+)\b.*?\bon\s+conflict\s*\(([^)]*)\)\s*(?:where\s+.*?)?\bdo\s+update\b`)

var returningWord = regexp.MustCompile(`\breturning\b`)

// upsert is an INSERT … ON CONFLICT (cols) DO UPDATE.
type upsert struct {
	table     string
	conflict  []string // the conflict target's columns
	returning bool
}

// upserts returns the upserts of a normalized statement.
func upserts(stmt string) []upsert {
	var out []upsert
	for _, m := range upsertConflict.FindAllStringSubmatch(stmt, -1) {
		u := upsert{table: lastPart(m[1]), returning: returningWord.MatchString(stmt)}
		for _, c := range strings.Split(m[2], ",") {
			// A column may carry a collation or an operator class: keep its name.
			if f := strings.Fields(c); len(f) > 0 {
				u.conflict = append(u.conflict, lastPart(strings.Trim(f[0], "()")))
			}
		}
		out = append(out, u)
	}
	return out
}

func lastPart(s string) string {
	if i := strings.LastIndex(s, "."); i >= 0 {
		return s[i+1:]
	}
	return s
}
