package restarttest

import (
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The bundled examples: only intent and frozenmodel hold the effect to
// exactly once. The intent example runs the default plan (every kill point
// its clean round calls for); the others run the rounds that show their
// verdict, and the default plan with IDEMCHECK_TESTS=full.

func TestExampleIntentPasses(t *testing.T) {
	t.Parallel()
	rep := run(t, exampleConfig(t, "intent"))
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictPass {
		t.Fatalf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
	}
	if rep.Learned.Writes < 2 || rep.Learned.EffectRequests != 1 {
		t.Errorf("learned %+v, want ≥2 writes (intent, ledger) and 1 effect request", rep.Learned)
	}
	want := []string{"none", "request", "response", "after-response", "db-write:1", "db-write:2", "resend", "respell", "provider-forgets"}
	got := killPoints(rep)
	for _, k := range want {
		if !slices.Contains(got, k) {
			t.Errorf("plan %v lacks %s", got, k)
		}
	}
	if got[len(got)-1] != "concurrent:2" {
		t.Errorf("plan %v does not end with concurrent:2", got)
	}
	for _, k := range []string{"request", "response", "after-response", "db-write:1", "db-write:2"} {
		r := roundAt(t, rep, k)
		if !r.KillReached {
			t.Errorf("round %s: kill point not reached", k)
		}
		if len(r.Attempts) < 2 {
			t.Errorf("round %s: %d attempts, want a redelivery after the kill", k, len(r.Attempts))
		}
	}
	// The response kill is the article's case: executed once, replayed after.
	r := roundAt(t, rep, "response")
	var executed, replayed int
	for _, q := range r.EffectRequests {
		switch q.Result {
		case ResultExecuted:
			executed++
		case ResultReplayed:
			replayed++
		}
	}
	if executed != 1 || replayed < 1 {
		t.Errorf("response round: %d executed, %d replayed; want 1 and ≥1", executed, replayed)
	}
}

func TestExampleFrozenModelPasses(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "frozenmodel")
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillResponse})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictPass {
		t.Fatalf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
	}
	if r := roundAt(t, rep, "response"); r.ModelCalls != 1 {
		t.Errorf("response round: model asked %d times, want once (frozen)", r.ModelCalls)
	}
}

func TestExampleUUIDKeyFails(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "uuidkey")
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillResponse})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictFail {
		t.Fatalf("verdict %s, want fail", rep.Verdict)
	}
	if !roundAt(t, rep, "none").Passed {
		t.Error("the clean round must pass: one delivery charges once")
	}
	r := roundAt(t, rep, "response")
	if check(r, CheckKeyStable).Passed {
		t.Error("response round: key-stable passed with a key drawn per attempt")
	}
	once := check(r, CheckEffectOnce)
	if once.Passed || !strings.HasPrefix(once.Detail, "duplicated charge (2 effects") {
		t.Errorf("response round: effect-once = %+v, want duplicated charge (2 effects…)", once)
	}
	if !strings.HasPrefix(rep.Summary, "FAIL ") || !strings.Contains(rep.Summary, "duplicated charge (2 effects, keys ") {
		t.Errorf("summary %q", rep.Summary)
	}
}

func TestExampleModelKeyFails(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "modelkey")
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillResponse})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictFail {
		t.Fatalf("verdict %s, want fail", rep.Verdict)
	}
	r := roundAt(t, rep, "response")
	for _, name := range []string{CheckKeyStable, CheckPayloadFrozen, CheckEffectOnce} {
		if check(r, name).Passed {
			t.Errorf("response round: %s passed with the key taken from a drifting model", name)
		}
	}
	if r.ModelCalls < 2 {
		t.Errorf("response round: model asked %d times, want once per attempt", r.ModelCalls)
	}
}

func TestExampleStartedAsDoneLosesTheEffect(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "startedasdone")
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillRequest}, KillPoint{Kind: KillDBWrite, N: 1})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictFail {
		t.Fatalf("verdict %s, want fail", rep.Verdict)
	}
	for _, k := range []string{"request", "db-write:1"} {
		once := check(roundAt(t, rep, k), CheckEffectOnce)
		if once.Passed || !strings.HasPrefix(once.Detail, "lost charge (0 effects") {
			t.Errorf("round %s: effect-once = %+v, want lost charge", k, once)
		}
	}
	for k := range failedChecks(rep) {
		// Its key is also an HMAC of the message id, which the resend
		// round catches on its own.
		if !strings.HasSuffix(k, "/"+CheckEffectOnce) && !strings.HasPrefix(k, KillResend+"/") && !strings.HasPrefix(k, KillRespell+"/") {
			t.Errorf("unexpected failed check %s: the key is stable, only the effect is lost", k)
		}
	}
}

func TestExampleCheckThenActDuplicatesUnderConcurrency(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "checkthenact")
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillResponse}, KillPoint{Kind: KillConcurrent, N: 2})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictFail {
		t.Fatalf("verdict %s, want fail", rep.Verdict)
	}
	for _, r := range rep.Rounds {
		// The re-sent message (a new message id) is a new row and a new
		// key: those rounds fail too.
		kp, _ := ParseKillPoint(r.KillPoint)
		if !kp.Concurrent() && r.KillPoint != KillResend && r.KillPoint != KillRespell && !r.Passed {
			t.Errorf("round %s failed %v: sequential redeliveries reuse the row's key", r.KillPoint, r.Checks)
		}
	}
	r := roundAt(t, rep, "concurrent:2")
	once := check(r, CheckEffectOnce)
	if once.Passed || !strings.HasPrefix(once.Detail, "duplicated charge (2 effects") {
		t.Errorf("concurrent round: effect-once = %+v, want duplicated", once)
	}
	if !check(r, CheckAcked).Passed {
		t.Errorf("concurrent round: both deliveries should be acknowledged: %+v", check(r, CheckAcked))
	}
	// The redelivery after the kill kept its key: the two keys are a race
	// with nothing unique behind the check, not a key drawn per attempt.
	if stable := check(r, CheckKeyStable); stable.Passed || !strings.Contains(stable.Detail, raceInKey) {
		t.Errorf("concurrent round: key-stable = %+v, want the race named", stable)
	}
	if runtime.GOOS == "linux" {
		// Each simultaneous delivery's request is traced to its process.
		seen := map[int]bool{}
		for _, q := range r.EffectRequests {
			if q.Delivery == 0 || q.Attempt == 0 {
				t.Errorf("request %d not attributed: delivery %d attempt %d", q.Seq, q.Delivery, q.Attempt)
			}
			seen[q.Delivery] = true
		}
		if len(seen) != 2 {
			t.Errorf("requests came from deliveries %v, want 1 and 2", seen)
		}
	}
}

// Handlers in other languages follow the same protocol: sh + psql + curl.
func TestShellHandlers(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"psql", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	base := Config{
		Message:     readTestdata(t, "message.json"),
		Setup:       string(readTestdata(t, "sh/setup.sql")),
		MaxAttempts: 4,
		Backoff:     30 * time.Millisecond,
		DSN:         dsn(t),
	}
	good := base
	good.Handler = "sh ../testdata/restart/sh/intent.sh"
	good.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillAfterResponse}, KillPoint{Kind: KillDBWrite, N: 1})
	rep := run(t, good)
	if rep.Verdict != VerdictPass {
		dumpOnFailure(t, rep)
		t.Errorf("intent.sh: verdict %s, failed %v", rep.Verdict, failedChecks(rep))
	}
	bad := base
	bad.Handler = "sh ../testdata/restart/sh/timekey.sh"
	bad.KillPoints = []KillPoint{{Kind: KillResponse}}
	rep = run(t, bad)
	if once := check(rep.Rounds[0], CheckEffectOnce); once.Passed || !strings.HasPrefix(once.Detail, "duplicated") {
		t.Errorf("timekey.sh: effect-once = %+v, want duplicated", once)
	}
	if stable := check(rep.Rounds[0], CheckKeyStable); stable.Passed || !strings.Contains(stable.Detail, "the key carries a clock reading") {
		t.Errorf("timekey.sh: key-stable = %+v, want the clock named", stable)
	}
	// A counter the handler keeps: the explanation names the count.
	counted := base
	counted.Handler = "sh ../testdata/restart/sh/countkey.sh"
	counted.KillPoints = []KillPoint{{Kind: KillResponse}}
	rep = run(t, counted)
	want := "pay-42-attempt-1, pay-42-attempt-2): the key carries a number that grows with each delivery (1, then 2)"
	if stable := check(rep.Rounds[0], CheckKeyStable); stable.Passed || !strings.Contains(stable.Detail, want) {
		t.Errorf("countkey.sh: key-stable = %+v, want %q", stable, want)
	}
}

func TestRandomRoundsAreReproducibleBySeed(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "intent")
	cfg.KillPoints = []KillPoint{{Kind: KillRandom}}
	cfg.Rounds, cfg.Seed = 3, 11
	a := run(t, cfg)
	b := run(t, cfg)
	if got, again := killPoints(a), killPoints(b); strings.Join(got, " ") != strings.Join(again, " ") || len(got) != 4 || got[0] != "none" {
		t.Errorf("seed 11 drew %v, then %v", got, again)
	}
	if a.Seed == nil || *a.Seed != 11 {
		t.Errorf("seed not reported: %v", a.Seed)
	}
	if a.Verdict != VerdictPass || b.Verdict != VerdictPass {
		t.Errorf("intent failed random rounds: %v %v", failedChecks(a), failedChecks(b))
	}
}

// A provider that fails once and is slow, and a kill after a delay: the
// correct handler still charges exactly once.
func TestIntentUnderProviderFaultsAndTimeKill(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "intent")
	cfg.Fault = ProviderFault{FailOnce: true, Delay: 50 * time.Millisecond}
	cfg.KillPoints = []KillPoint{{Kind: KillNone}, {Kind: KillTime, Delay: 20 * time.Millisecond}, {Kind: KillResponse}}
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictPass {
		t.Fatalf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
	}
	faulted := false
	for _, q := range roundAt(t, rep, "none").EffectRequests {
		faulted = faulted || q.Result == ResultFault
	}
	if !faulted {
		t.Error("500-once never answered 500")
	}
}
