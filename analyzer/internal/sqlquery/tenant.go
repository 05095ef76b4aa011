package sqlquery

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/config"
)

// Unscoped returns IDEM007's messages for one normalized statement: a
// lookup of an idempotency table by key with no tenant column in its
// WHERE, and an upsert whose conflict target names the key but no tenant
// column. Keys are unique only within a tenant, so either can match
// another tenant's record. resolve gives the columns of a constraint
// named by ON CONFLICT ON CONSTRAINT; a name it does not know is not
// reported (no guess). The same judgement serves Go, Python and
// TypeScript.
func Unscoped(cfg *config.Config, stmt string, resolve func(name string) ([]string, bool)) []string {
	var out []string
	for _, u := range upserts(stmt) {
		if msg, ok := unscopedUpsert(cfg, u, resolve); ok {
			out = append(out, msg)
		}
	}
	for _, l := range Lookups(stmt) {
		if keyCol := unscopedKeyColumn(cfg, l.Table, l.Where); keyCol != "" {
			out = append(out, fmt.Sprintf(
				"%s on %s filters by %s without a tenant column: keys are unique only per tenant, so this can match another tenant's record; add tenant_id to the where clause and the primary key",
				l.Kind, l.Table, keyCol))
		}
	}
	return out
}

// unscopedUpsert is the message for an upsert into an idempotency table
// whose conflict target has the key but no tenant column: a key another
// tenant already used updates that tenant's row (and RETURNING hands it
// back), or, with DO NOTHING, turns this tenant's insert into a no-op, so
// its request is taken for a duplicate.
func unscopedUpsert(cfg *config.Config, u upsert, resolve func(string) ([]string, bool)) (string, bool) {
	cols := u.conflict
	target := "(" + strings.Join(cols, ", ") + ")"
	if u.constraint != "" {
		var ok bool
		if resolve == nil {
			return "", false
		}
		if cols, ok = resolve(u.constraint); !ok {
			return "", false // defined elsewhere: no guess
		}
		target = "on constraint " + u.constraint + " (" + strings.Join(cols, ", ") + ")"
	}
	keyCol := unscopedKeyColumn(cfg, u.table, cols)
	if keyCol == "" {
		return "", false
	}
	var effect string
	switch {
	case u.action == "nothing":
		effect = "turns this insert into a no-op, so this tenant's request is taken for a duplicate"
	case u.returning:
		effect = "updates that tenant's record and returns it"
	default:
		effect = "overwrites that tenant's record"
	}
	return fmt.Sprintf(
		"insert on %s with on conflict %s do %s has no tenant column in the conflict target: a key another tenant used %s; add tenant_id to the conflict target and the unique key",
		u.table, target, u.action, effect), true
}

// unscopedKeyColumn returns the first key column among cols of table when
// none of them is a tenant column, nor (without an OR among them) another
// row's identifier the record belongs to (ownerColumn), and "" otherwise:
// a match on such columns can find another tenant's record. The same
// holds for an upsert's conflict target (ON CONFLICT (order_id, key)). In a table that records keys
// (idempotency_keys, intents) any key-like column counts (key, key_id, chave,
// request_key); in any other table (orders, payments) only a column that
// says it holds an idempotency or dedup key does: the column, not the
// table's name, says the lookup is by the client's key.
func unscopedKeyColumn(cfg *config.Config, table string, cols []string) string {
	keyTable := IsIdempotencyTable(cfg, table)
	keyCol := ""
	owned := false
	for _, col := range cols {
		if IsTenantColumn(cfg, col) {
			return ""
		}
		if keyCol == "" && (keyTable && IsKeyColumn(col) || IsIdempotencyColumn(col)) {
			keyCol = col
			continue
		}
		owned = owned || ownerColumn(col)
	}
	if owned && !slices.Contains(cols, "or") {
		// WHERE grant_id = $1 AND idempotency_key = $2: the key is
		// matched within the row's owner (a grant, a terminal, an
		// order), so another owner's use of the same key is never
		// found. Not so when OR lets the key match alone.
		return ""
	}
	return keyCol
}

// ownerColumn reports a column naming another row the matched one
// belongs to (grant_id, terminal_id, order_uuid): an identifier other than
// the row's own id.
func ownerColumn(col string) bool {
	col = strings.ToLower(col)
	return col != "id" && col != "uuid" && !IsKeyColumn(col) && (strings.HasSuffix(col, "_id") || strings.HasSuffix(col, "_uuid"))
}

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
		u := upsert{table: baseName(m[1]), constraint: baseName(m[3]), action: m[4], returning: returningWord.MatchString(stmt)}
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
			cols = append(cols, baseName(strings.Trim(f[0], "()")))
		}
	}
	return cols
}

// namedConstraint matches, in normalized DDL, a named unique or primary
// key constraint with its columns: constraint C unique [nulls [not]
// distinct] (c1, c2), constraint C primary key (c1, c2).
var namedConstraint = regexp.MustCompile(`\bconstraint\s+([\w.$]+)\s+(?:unique(?:\s+nulls\s+(?:not\s+)?distinct)?|primary\s+key)\s*\(([^)]*)\)`)

// Constraint is a named unique or primary key constraint and its columns.
type Constraint struct {
	Name    string
	Columns []string
}

// NamedConstraints returns the named unique and primary key constraints
// a DDL string defines (CREATE TABLE, ALTER TABLE … ADD CONSTRAINT).
func NamedConstraints(ddl string) []Constraint {
	var out []Constraint
	for _, m := range namedConstraint.FindAllStringSubmatch(Normalize(ddl), -1) {
		out = append(out, Constraint{Name: baseName(m[1]), Columns: columnList(m[2])})
	}
	return out
}
