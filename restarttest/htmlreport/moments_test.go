package htmlreport

import (
	"testing"

	"github.com/idemcheck/idemcheck/restarttest"
)

// Each failing check points at the moment that made it fail; the browser
// test sees effect-once and key-stable on a real run, these are the others.
func TestBrokeAt(t *testing.T) {
	req := func(seq int, key, body, result string) restarttest.EffectRequest {
		return restarttest.EffectRequest{Seq: seq, Endpoint: "POST /v1/charges", IdempotencyKey: key, Body: body, Result: result}
	}
	attempts := []restarttest.Attempt{
		{Index: 1, StartMS: 0, DurationMS: 50, Outcome: restarttest.OutcomeKilled},
		{Index: 2, StartMS: 60, DurationMS: 40, Outcome: restarttest.OutcomeFailed},
		{Index: 3, StartMS: 120, DurationMS: 40, Outcome: restarttest.OutcomeFailed},
	}
	cases := []struct {
		check string
		reqs  []restarttest.EffectRequest
		want  string
	}{
		{restarttest.CheckKeyPresent, []restarttest.EffectRequest{req(1, "k", "a", "executed"), req(2, "", "a", "executed")}, "request:2"},
		{restarttest.CheckKeyStable, []restarttest.EffectRequest{req(1, "", "a", "executed"), req(2, "k1", "a", "executed"), req(3, "k1", "a", "replayed"), req(4, "k2", "a", "executed")}, "request:4"},
		{restarttest.CheckPayloadFrozen, []restarttest.EffectRequest{req(1, "k", "a", "executed"), req(2, "k", "b", "conflict")}, "request:2"},
		{restarttest.CheckPayloadFrozen, []restarttest.EffectRequest{req(1, "k1", "a", "executed"), req(2, "k2", "b", "executed")}, "request:2"},
		{restarttest.CheckEffectOnce, []restarttest.EffectRequest{req(1, "k", "a", "executed"), req(2, "k", "a", "replayed"), req(3, "j", "a", "executed")}, "request:3"},
		{restarttest.CheckEffectOnce, nil, "round"}, // lost: no moment but the end
		{restarttest.CheckAcked, nil, "end:2"},      // the last attempt that ended unacknowledged
	}
	for _, tc := range cases {
		r := restarttest.Round{Attempts: attempts, EffectRequests: tc.reqs}
		if got := brokeAt(r, restarttest.Check{Name: tc.check, Applicable: true}); got != tc.want {
			t.Errorf("%s with %d requests broke at %s, want %s", tc.check, len(tc.reqs), got, tc.want)
		}
	}
}
