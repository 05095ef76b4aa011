package sqlquery

import (
	"regexp"
	"strings"
)

// Bound is a value expression of an INSERT's VALUES list: a placeholder
// ($1, %s, ?, %(name)s, :name) or SQL of its own (now(), 'x').
type Bound struct {
	Expr string
	// Seq numbers the anonymous placeholders (%s, ?) of the statement
	// from 0 in order; -1 for any other expression.
	Seq int
}

// ConflictValues returns, for an INSERT … VALUES that yields to a
// uniqueness constraint, the values bound to the columns a conflict can
// be on: the ON CONFLICT target's columns, or every inserted column when
// no target names them (ON CONFLICT DO NOTHING, ON CONSTRAINT, ON
// DUPLICATE KEY, INSERT IGNORE). Whether a second attempt's insert
// meets the first's row depends on these values alone. ok is false when
// stmt is no such insert or its lists cannot be read.
func ConflictValues(stmt string) (values []Bound, ok bool) {
	if _, yields := Inserts(stmt); !yields {
		return nil, false
	}
	loc := insertInto.FindStringSubmatchIndex(stmt)
	if loc == nil {
		return nil, false
	}
	rest := stmt[loc[1]:]
	cols, rest, ok := parenList(strings.TrimLeft(rest, " "))
	if !ok {
		return nil, false
	}
	rest = strings.TrimLeft(rest, " ")
	if !strings.HasPrefix(rest, "values") {
		return nil, false
	}
	before := stmt[:len(stmt)-len(rest)]
	vals, _, ok := parenList(strings.TrimLeft(strings.TrimPrefix(rest, "values"), " "))
	if !ok || len(vals) != len(cols) {
		return nil, false
	}
	seq := len(anonymousPlaceholder.FindAllString(before, -1))
	bound := make([]Bound, len(vals))
	for i, v := range vals {
		bound[i] = Bound{Expr: v, Seq: -1}
		if e := Uncast(v); e == "%s" || e == "?" {
			bound[i].Seq = seq
		}
		seq += len(anonymousPlaceholder.FindAllString(v, -1))
	}
	target := conflictTarget(stmt)
	if target == nil {
		return bound, true
	}
	for _, t := range target {
		i := indexOf(cols, t)
		if i < 0 {
			return nil, false
		}
		values = append(values, bound[i])
	}
	return values, true
}

var anonymousPlaceholder = regexp.MustCompile(`%s|\?`)

// Uncast is a value expression without its cast: $1::uuid is $1.
func Uncast(expr string) string {
	if i := strings.Index(expr, "::"); i > 0 {
		return strings.TrimSpace(expr[:i])
	}
	return expr
}

// conflictTarget is the ON CONFLICT (cols) target of stmt, or nil.
func conflictTarget(stmt string) []string {
	for _, u := range upserts(stmt) {
		if u.conflict != nil {
			return u.conflict
		}
	}
	return nil
}

// parenList reads "(a, b(c, d), e) rest" into its top-level items and
// what follows the closing parenthesis.
func parenList(s string) (items []string, rest string, ok bool) {
	if !strings.HasPrefix(s, "(") {
		return nil, s, false
	}
	depth, start := 0, 1
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				items = append(items, strings.TrimSpace(s[start:i]))
				return items, s[i+1:], true
			}
		case ',':
			if depth == 1 {
				items = append(items, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, s, false
}

func indexOf(cols []string, col string) int {
	for i, c := range cols {
		if baseName(c) == col {
			return i
		}
	}
	return -1
}
