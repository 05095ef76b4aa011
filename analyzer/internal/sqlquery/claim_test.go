package sqlquery

import (
	"slices"
	"testing"
)

func TestConflictValues(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want []Bound
		ok   bool
	}{
		// Every column can conflict when no target is named.
		{"insert into payments (idem_key) values (%s) on conflict do nothing", []Bound{{"%s", 0}}, true},
		{"INSERT INTO intents (order_id, key) VALUES ($1, $2) ON CONFLICT (order_id) DO NOTHING", []Bound{{"$1", -1}}, true},
		{"INSERT INTO intents (key, order_id, at) VALUES (?, ?, now()) ON CONFLICT (order_id, key) DO NOTHING", []Bound{{"?", 1}, {"?", 0}}, true},
		{"insert into t (a, b) values (%(a)s, coalesce(%s, 'x')) on conflict on constraint t_pk do nothing", []Bound{{"%(a)s", -1}, {"coalesce(%s, '')", -1}}, true},
		{"INSERT IGNORE INTO dedup (k) VALUES (?)", []Bound{{"?", 0}}, true},
		// Not a conflict-guarded insert, or lists that cannot be read.
		{"INSERT INTO t (k) VALUES ($1)", nil, false},
		{"INSERT INTO t SELECT * FROM u ON CONFLICT DO NOTHING", nil, false},
		{"INSERT INTO t (a, b) VALUES ($1) ON CONFLICT DO NOTHING", nil, false},
		{"INSERT INTO t (a) VALUES ($1) ON CONFLICT (z) DO NOTHING", nil, false},
	} {
		got, ok := ConflictValues(Normalize(tc.sql))
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v %v, want %v %v", tc.sql, got, ok, tc.want, tc.ok)
		}
	}
}
