package restarttest

import (
	"strings"
	"testing"
)

func TestParseKillPointPerRequest(t *testing.T) {
	for in, want := range map[string]string{
		"request": "request", "request:1": "request", "request:2": "request:2",
		"response:3": "response:3", "after-response:2": "after-response:2", "resend": "resend",
		"second-tenant": "second-tenant", "concurrent:2+request": "concurrent:2+request",
		"concurrent:3+response:2": "concurrent:3+response:2", "concurrent:2+db-write:1": "concurrent:2+db-write:1",
		"concurrent:2+time:50ms": "concurrent:2+time:50ms",
	} {
		kp, err := ParseKillPoint(in)
		if err != nil || kp.String() != want {
			t.Errorf("ParseKillPoint(%q) = %v, %v; want %s", in, kp, err, want)
		}
	}
	for _, bad := range []string{"request:0", "response:x", "after-response:", "resend:2",
		"concurrent:1+request", "concurrent:2+", "concurrent:2+resend", "concurrent:2+concurrent:2", "concurrent:2+none", "concurrent:2+random", "second-tenant:2"} {
		if _, err := ParseKillPoint(bad); err == nil {
			t.Errorf("ParseKillPoint(%q) accepted", bad)
		}
	}
}

// A clean round that made two effect requests and two writes, with an
// envelope field and values to respell: the default plan kills around each
// request, at each write, re-sends, re-sends spelled another way, delivers
// again after the provider forgot, sends it for a second tenant, races two
// copies while the first is killed at each request, and races two
// deliveries. A message with nothing to respell has no respell round, one
// without a tenant no second-tenant round, and one whose clean round made
// no effect request no provider-forgets round and no race with a kill.
func TestDefaultPlanFollowsTheCleanRound(t *testing.T) {
	h := &harness{}
	h.cfg.Message = readTestdata(t, "message.json")
	envelope, err := findEnvelope(h.cfg.Message, nil)
	if err != nil || len(envelope) == 0 {
		t.Fatalf("message.json: envelope %v, %v; want its message_id", envelope, err)
	}
	h.envelope = envelope
	if h.tenant, err = findTenant(h.cfg.Message, nil); err != nil || len(h.tenant) != 1 || h.tenant[0].path != "tenant" {
		t.Fatalf("message.json: tenant %v, %v; want its tenant", h.tenant, err)
	}
	h.learned.RequestsPerAttempt, h.learned.Writes, h.learned.EffectRequests = 2, 2, 2
	plan := func() string {
		var got []string
		for _, k := range h.expandPlan([]KillPoint{{Kind: KillNone}}, false) {
			got = append(got, k.String())
		}
		return strings.Join(got, " ")
	}
	want := "none request response after-response request:2 response:2 after-response:2 db-write:1 db-write:2 resend respell provider-forgets second-tenant concurrent:2+request concurrent:2+request:2 concurrent:2"
	if got := plan(); got != want {
		t.Errorf("plan %v\nwant %s", got, want)
	}
	h.cfg.Message = []byte(`{"message_id":"m-1","note":"hello"}`)
	h.learned = Learned{Writes: 1}
	h.tenant = nil
	if got, want := plan(), "none db-write:1 resend concurrent:2"; got != want {
		t.Errorf("nothing to respell, no effect request: plan %v\nwant %s", got, want)
	}
}

// A hold with a stable key, then a capture with a key drawn per attempt:
// only kills around the second effect request duplicate the capture, and
// the default plan has them because the clean round made two requests.
func TestHoldThenCaptureFailsAroundTheSecondRequest(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "holdcapture")
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillResponse},
		KillPoint{Kind: KillRequest, N: 2}, KillPoint{Kind: KillResponse, N: 2})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Learned.RequestsPerAttempt != 2 {
		t.Fatalf("learned %+v, want 2 requests per attempt", rep.Learned)
	}
	ran(t, rep, "request", "response", "after-response", "request:2", "response:2", "after-response:2")
	if rep.Verdict != VerdictFail {
		t.Fatalf("verdict %s, want fail", rep.Verdict)
	}
	// Around the first request the hold is replayed and the capture made once.
	for _, k := range ran(t, rep, "request", "response", "after-response", "db-write:1", "concurrent:2") {
		if r := roundAt(t, rep, k); !r.Passed {
			t.Errorf("round %s failed %v", k, r.Checks)
		}
	}
	// The dropped capture is re-sent under a new key: no double effect,
	// but the drifting key is seen.
	r := roundAt(t, rep, "request:2")
	if !check(r, CheckEffectOnce).Passed || check(r, CheckKeyStable).Passed {
		t.Errorf("round request:2: checks %v, want effect-once passed and key-stable failed", r.Checks)
	}
	for _, k := range ran(t, rep, "response:2", "after-response:2") {
		r := roundAt(t, rep, k)
		if !r.KillReached {
			t.Errorf("round %s: kill point not reached", k)
		}
		once := check(r, CheckEffectOnce)
		if once.Passed || !strings.Contains(once.Detail, "duplicated capture (2 effects") || strings.Contains(once.Detail, "hold") {
			t.Errorf("round %s: effect-once = %+v, want the capture duplicated, not the hold", k, once)
		}
	}
	if !strings.Contains(rep.Summary, "duplicated capture") {
		t.Errorf("summary %q", rep.Summary)
	}
}

// A kill inside a concurrent round names its deliveries and the kill its
// first copy records.
func TestConcurrentKillNamesItsParts(t *testing.T) {
	kp, err := ParseKillPoint("concurrent:2+response:2")
	if err != nil {
		t.Fatal(err)
	}
	if kp.Deliveries() != 2 || !kp.Concurrent() || !kp.kills() || kp.Landing() != "response:2" || !kp.oneMessage() {
		t.Errorf("%+v: deliveries %d, concurrent %v, kills %v, landing %q", kp, kp.Deliveries(), kp.Concurrent(), kp.kills(), kp.Landing())
	}
	if got, want := kp.Label(), "2 deliveries at once, one killed at response:2"; got != want {
		t.Errorf("label %q, want %q", got, want)
	}
	plain := KillPoint{Kind: KillConcurrent, N: 3}
	if plain.Deliveries() != 3 || plain.kills() || plain.oneMessage() {
		t.Errorf("concurrent:3: %+v", plain)
	}
}
