package restarttest

import (
	"strings"
	"testing"
)

func TestDriftCauseReadsTheKeys(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want string
	}{
		{"pay-42-false", "pay-42-true", "the key follows the delivery's redelivered flag (false, then true): a redelivery changes it"},
		{"order:7:1", "order:7:2", "the key carries a number that grows with each delivery (1, then 2): a delivery count, an attempt counter or an id drawn per delivery, which a redelivery changes"},
		{"job-41", "job-42", "the key carries a number that grows with each delivery (41, then 42): a delivery count, an attempt counter or an id drawn per delivery, which a redelivery changes"},
		{"o1-2026-12-01T19:20", "o1-2026-12-01T19:21", "the key carries a clock reading (2026-12-01T19:20, then 2026-12-01T19:21): a redelivery reads another"},
		{"o1-1764616800", "o1-1764616803", "the key carries a clock reading (1764616800, then 1764616803): a redelivery reads another"},
		{"o1-20261201192003", "o1-20261201192005", "the key carries a clock reading (20261201192003, then 20261201192005): a redelivery reads another"},
		{"pay-1764616800123456789-4242", "pay-1764616801987654321-4299", "the key carries a clock reading (1764616800123456789, then 1764616801987654321): a redelivery reads another"},
		{"c36c2a0e-77f1-4c7e-9d1b-0a5a3b3f4e10", "3beb9f3a-1c2d-4e5f-8a9b-7c6d5e4f3a21", drawnInAttempt},
		{"order-9", "order-3", drawnInAttempt}, // a number that shrank is no count
		{"k", "kk", drawnInAttempt},
	} {
		if got := driftCause([]string{tc.a, tc.b}, false); got != tc.want {
			t.Errorf("%s, %s:\n got %s\nwant %s", tc.a, tc.b, got, tc.want)
		}
	}
	if got := driftCause([]string{"a1", "b2"}, true); got != raceInKey {
		t.Errorf("concurrent only: %s", got)
	}
}

// A key whose two values show nothing readable is "drawn in the attempt";
// when the requests were ten seconds or more apart, a clock bucket hashed
// into the key is named too (a minute bucket shows only with --backoff 61s).
func TestKeyDriftNamesAClockBucketWhenRequestsWereApart(t *testing.T) {
	reqs := func(gapMS int64) []EffectRequest {
		return []EffectRequest{
			{Endpoint: "POST /v1/charges", IdempotencyKey: "9f2c41d0a7", AtMS: 100},
			{Endpoint: "POST /v1/charges", IdempotencyKey: "e81b07c3d5", AtMS: 100 + gapMS},
		}
	}
	for _, c := range []struct {
		gapMS int64
		hint  bool
	}{{200, false}, {3_000, false}, {61_200, true}} {
		r := Round{KillPoint: "response", EffectRequests: reqs(c.gapMS)}
		r.Effects = tally(r.EffectRequests)
		got := checkKeyStable(&r, expectation{endpoints: []string{"POST /v1/charges"}})
		if got.Passed || strings.Contains(got.Detail, "61.2s apart") != c.hint || !strings.Contains(got.Detail, drawnInAttempt) {
			t.Errorf("requests %dms apart: key-stable = %+v, want the clock bucket named: %v", c.gapMS, got, c.hint)
		}
	}
}

// In a concurrent round with kills, a redelivery that reads the row a
// sibling copy inserted first sends that copy's key: its key changed, but
// it was drawn by another delivery, not per attempt. A key of its own that
// changes between attempts is drift.
func TestConcurrentRedeliveryTakingASiblingsKeyIsNoDrift(t *testing.T) {
	const ep = "POST /v1/charges"
	req := func(delivery, attempt int, key string) EffectRequest {
		return EffectRequest{Endpoint: ep, Delivery: delivery, Attempt: attempt, IdempotencyKey: key}
	}
	for _, tc := range []struct {
		name    string
		reqs    []EffectRequest
		changed bool
	}{
		{"sibling's key after the kill", []EffectRequest{req(2, 1, "payment-2"), req(1, 1, "payment-1"), req(2, 2, "payment-1")}, false},
		{"sibling's key before it sent it", []EffectRequest{req(2, 1, "payment-2"), req(2, 2, "payment-1"), req(1, 1, "payment-1")}, false},
		{"each kept its own", []EffectRequest{req(1, 1, "payment-1"), req(2, 1, "payment-2"), req(1, 2, "payment-1")}, false},
		{"fresh key per attempt", []EffectRequest{req(1, 1, "u-a"), req(2, 1, "u-b"), req(1, 2, "u-c")}, true},
		{"attempt count in the key", []EffectRequest{req(1, 1, "pay-1"), req(2, 1, "pay-1"), req(1, 2, "pay-2"), req(2, 2, "pay-2")}, true},
	} {
		if got := keyChangedWithinADelivery(Round{EffectRequests: tc.reqs}, ep); got != tc.changed {
			t.Errorf("%s: changed = %v, want %v", tc.name, got, tc.changed)
		}
	}
}
