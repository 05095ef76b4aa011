package restarttest

import (
	"slices"
	"strings"
	"testing"
)

func TestParseKillPointPerRequest(t *testing.T) {
	for in, want := range map[string]string{
		"request": "request", "request:1": "request", "request:2": "request:2",
		"response:3": "response:3", "after-response:2": "after-response:2", "resend": "resend",
	} {
		kp, err := ParseKillPoint(in)
		if err != nil || kp.String() != want {
			t.Errorf("ParseKillPoint(%q) = %v, %v; want %s", in, kp, err, want)
		}
	}
	for _, bad := range []string{"request:0", "response:x", "after-response:", "resend:2"} {
		if _, err := ParseKillPoint(bad); err == nil {
			t.Errorf("ParseKillPoint(%q) accepted", bad)
		}
	}
}

// A hold with a stable key, then a capture with a key drawn per attempt:
// only kills around the second effect request duplicate the capture, and
// the default plan has them because the clean round made two requests.
func TestHoldThenCaptureFailsAroundTheSecondRequest(t *testing.T) {
	rep := run(t, exampleConfig(t, "holdcapture"))
	defer dumpOnFailure(t, rep)
	if rep.Learned.RequestsPerAttempt != 2 {
		t.Fatalf("learned %+v, want 2 requests per attempt", rep.Learned)
	}
	plan := killPoints(rep)
	for _, k := range []string{"request", "response", "after-response", "request:2", "response:2", "after-response:2"} {
		if !slices.Contains(plan, k) {
			t.Errorf("default plan %v lacks %s", plan, k)
		}
	}
	if rep.Verdict != VerdictFail {
		t.Fatalf("verdict %s, want fail", rep.Verdict)
	}
	// Around the first request the hold is replayed and the capture made once.
	for _, k := range []string{"request", "response", "after-response", "db-write:1", "concurrent:2"} {
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
	for _, k := range []string{"response:2", "after-response:2"} {
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
