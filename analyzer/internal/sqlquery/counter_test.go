package sqlquery

import (
	"reflect"
	"testing"
)

func TestReturnedCounters(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want []ReturnedCounter
	}{
		{"UPDATE jobs SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts, order_id", []ReturnedCounter{{"attempts", 0}}},
		{"update jobs set status = 'busy', retries = coalesce(retries, 0) + 1 where id = $1 returning order_id, retries", []ReturnedCounter{{"retries", 1}}},
		{"UPDATE jobs j SET j.attempts = j.attempts + 1 RETURNING *", []ReturnedCounter{{"attempts", -1}}},
		// Returns only other columns: the counter stays in the row.
		{"UPDATE jobs SET attempts = attempts + 1 WHERE id = $1 RETURNING order_id", nil},
		// No RETURNING: nothing handed back.
		{"UPDATE jobs SET attempts = attempts + 1 WHERE id = $1", nil},
		// Not a counter of its own: a balance moved by an amount.
		{"UPDATE accounts SET balance = total + 5 WHERE id = $1 RETURNING balance", nil},
		// The WHERE clause's arithmetic is not a SET.
		{"UPDATE jobs SET status = 'x' WHERE n = n + 1 RETURNING n", nil},
		{"SELECT attempts + 1 FROM jobs", nil},
	} {
		got := ReturnedCounters(Normalize(tc.sql))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ReturnedCounters(%q) = %v, want %v", tc.sql, got, tc.want)
		}
	}
}
