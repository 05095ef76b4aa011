package sqlquery

import (
	"regexp"
	"strings"
)

// selfIncrement matches a SET item that adds to the column's own value:
// attempts = attempts + 1, t.retries = coalesce(t.retries, 0) + 1.
var selfIncrement = regexp.MustCompile(`(?:^|[\s,])(?:\w+\.)?(\w+)\s*=\s*(?:coalesce\(\s*)?(?:\w+\.)?(\w+)(?:\s*,\s*0\s*\))?\s*\+\s*\d+`)

var returningList = regexp.MustCompile(`\breturning\s+(.+)$`)

// ReturnedCounter is a column an UPDATE increments and hands back:
// its position in the RETURNING list, -1 for RETURNING *.
type ReturnedCounter struct {
	Column string
	Index  int
}

// ReturnedCounters returns the columns a normalized UPDATE statement
// increments (SET c = c + 1) and returns (RETURNING c, or *). Each
// execution of such a statement hands back a new number: a counter this
// process advances, not a value every attempt reads alike.
func ReturnedCounters(stmt string) []ReturnedCounter {
	if !updateSet.MatchString(stmt) {
		return nil
	}
	ret := returningList.FindStringSubmatch(stmt)
	if ret == nil {
		return nil
	}
	set := stmt
	if i := strings.Index(set, " returning "); i >= 0 {
		set = set[:i]
	}
	if i := whereWord.FindStringIndex(set); i != nil {
		set = set[:i[0]]
	}
	var returned []string
	for _, col := range strings.Split(ret[1], ",") {
		col = strings.TrimSpace(col)
		if f := strings.Fields(col); len(f) > 0 {
			col = f[0] // "attempts as n": the column, not its alias
		}
		returned = append(returned, baseName(col))
	}
	var out []ReturnedCounter
	for _, m := range selfIncrement.FindAllStringSubmatch(set, -1) {
		if m[1] != m[2] {
			continue // a = b + 1: not a counter of its own
		}
		for i, r := range returned {
			if r == "*" || r == m[1] {
				if r == "*" {
					i = -1
				}
				out = append(out, ReturnedCounter{Column: m[1], Index: i})
				break
			}
		}
	}
	return out
}
