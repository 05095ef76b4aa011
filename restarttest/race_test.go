package restarttest

import (
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/internal/testenv"
)

// Under --client-key, concurrent:2 sends both requests at the same
// instant: a middleware that SELECTs, checks and INSERTs with no primary
// key on (client, key) charges twice, every time.
func TestClientKeyConcurrentCatchesCheckThenInsert(t *testing.T) {
	t.Parallel()
	cfg := apiConfig(t, "checkthenact")
	cfg.Setup = string(readTestdata(t, "api/checkthenact/setup.sql"))
	cfg.KillPoints = []KillPoint{{Kind: KillNone}, {Kind: KillConcurrent, N: 2}}
	n := testenv.Repeat(t)
	caught := 0
	for i := 0; i < n; i++ {
		rep := run(t, cfg)
		// (It has no fingerprint either: the clean round's mismatch probe
		// fails; its effect is still made once.)
		if c := check(roundAt(t, rep, "none"), CheckEffectOnce); !c.Passed {
			dumpOnFailure(t, rep)
			t.Fatalf("run %d: the clean round: effect-once %+v", i+1, c)
		}
		r := roundAt(t, rep, "concurrent:2")
		once := check(r, CheckEffectOnce)
		if !once.Passed && strings.HasPrefix(once.Detail, "duplicated charge (2 effects") {
			caught++
			continue
		}
		dumpOnFailure(t, rep)
		t.Errorf("run %d: effect-once %+v, rendezvous %+v", i+1, once, r.Rendezvous)
	}
	if caught != n {
		t.Errorf("checkthenact failed concurrent:2 in %d of %d runs, want %d of %d", caught, n, n, n)
	}
}

// The article's middleware done right passes concurrent:2 every time: the
// request that lost the claim is answered 409 and retries, and its retries
// wait while the harness holds the winner at a rendezvous, so their budget
// is never spent on the harness's own hold. The in-flight probe, separate
// from the race, checks the 409.
func TestClientKeyConcurrentRightPasses(t *testing.T) {
	t.Parallel()
	cfg := apiConfig(t, "right")
	cfg.MaxAttempts = 3
	cfg.KillPoints = []KillPoint{{Kind: KillNone}, {Kind: KillConcurrent, N: 2}}
	n := testenv.Repeat(t)
	passed := 0
	for i := 0; i < n; i++ {
		rep := run(t, cfg)
		r := roundAt(t, rep, "concurrent:2")
		inflight := check(r, CheckInFlightConflict)
		if rep.Verdict == VerdictPass && inflight.Applicable && inflight.Passed {
			if _, ok := probeNamed(&r, ProbeInFlight); ok {
				passed++
				continue
			}
		}
		dumpOnFailure(t, rep)
		t.Errorf("run %d: verdict %s, failed %v, in-flight %+v", i+1, rep.Verdict, failedChecks(rep), inflight)
	}
	if passed != n {
		t.Errorf("right passed concurrent:2 in %d of %d runs, want %d of %d", passed, n, n, n)
	}
}
