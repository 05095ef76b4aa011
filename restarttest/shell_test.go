package restarttest

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/internal/testenv"
)

func shellConfig(t *testing.T, script string, kill ...KillPoint) Config {
	t.Helper()
	for _, tool := range []string{"psql", "curl", "od"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	return Config{
		Handler:     "sh ../testdata/restart/sh/" + script,
		Message:     readTestdata(t, "message.json"),
		Setup:       string(readTestdata(t, "sh/setup.sql")),
		MaxAttempts: 4,
		Timeout:     attemptLimit,
		Backoff:     30 * time.Millisecond,
		DSN:         dsn(t),
		KillPoints:  kill,
	}
}

// A handler whose last act is its only write exits right after the commit,
// often before the write's notification arrives: the db-write:1 kill must
// still land (the acknowledgement is lost), or the duplicate it causes is
// never seen. The race is timing-dependent, so the bare case repeats
// (IDEMCHECK_REPEAT times; 20 in CI).
func TestDBWriteKillLandsOnTheLastWrite(t *testing.T) {
	t.Parallel()
	cfg := shellConfig(t, "", KillPoint{Kind: KillDBWrite, N: 1})
	cfg.Handler = `cat >/dev/null && exec psql -X -q -v ON_ERROR_STOP=1 -c "insert into intents (message_id, payload, key) values ('m', '{}', 'k') on conflict do nothing"`
	for i := range testenv.Repeat(t) {
		r := run(t, cfg).Rounds[0]
		if !r.KillReached {
			t.Fatalf("run %d: db-write:1 not reached; attempts %+v", i, r.Attempts)
		}
		if a := r.Attempts[0]; a.Outcome != OutcomeKilled || a.KilledAt != "db-write:1" || a.Writes != 1 {
			t.Fatalf("run %d: first attempt %+v, want killed at db-write:1 after 1 write", i, a)
		}
		if len(r.Attempts) != 2 || !r.Attempts[1].Acked() {
			t.Fatalf("run %d: attempts %+v, want a redelivery acknowledged", i, r.Attempts)
		}
	}
	rep := run(t, shellConfig(t, "randkey.sh", KillPoint{Kind: KillDBWrite, N: 1}))
	defer dumpOnFailure(t, rep)
	r := rep.Rounds[0]
	if once := check(r, CheckEffectOnce); !r.KillReached || once.Passed || !strings.HasPrefix(once.Detail, "duplicated") {
		t.Errorf("randkey.sh at db-write:1: reached %v, effect-once %+v, want duplicated", r.KillReached, once)
	}
	if check(r, CheckKeyStable).Passed {
		t.Error("randkey.sh: key-stable passed with a random key")
	}
}

// The shell handlers: which rounds fail, and why.
func TestShellHandlerVerdicts(t *testing.T) {
	t.Parallel()
	t.Run("randkey", func(t *testing.T) {
		t.Parallel()
		// Its default plan in a full run.
		rep := run(t, shellConfig(t, "randkey.sh", unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillAfterResponse},
			KillPoint{Kind: KillDBWrite, N: 1}, KillPoint{Kind: KillResend})...))
		defer dumpOnFailure(t, rep)
		if testenv.Full() {
			want := []string{"none", "request", "response", "after-response", "db-write:1", "resend", "respell", "provider-forgets", "second-tenant", "concurrent:2+request", "concurrent:2"}
			if got := killPoints(rep); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("rounds %v, want %v", got, want)
			}
		}
		for _, r := range rep.Rounds[1:] {
			if r.KillPoint == KillTenant {
				// Two tenants, a request each: a random key keeps them
				// apart, and nothing is redelivered.
				if !r.Passed {
					t.Errorf("round %s failed %v, want a pass", r.KillPoint, failedChecks(&Report{Rounds: []Round{r}}))
				}
				continue
			}
			if r.Passed || check(r, CheckKeyStable).Passed {
				t.Errorf("round %s passed key-stable with a random key", r.KillPoint)
			}
		}
		for _, kp := range ran(t, rep, "response", "after-response", "db-write:1", "resend", "concurrent:2") {
			if once := check(roundAt(t, rep, kp), CheckEffectOnce); once.Passed {
				t.Errorf("round %s: effect-once passed, want duplicated", kp)
			}
		}
	})
	t.Run("twoendpoints", func(t *testing.T) {
		t.Parallel()
		rep := run(t, shellConfig(t, "twoendpoints.sh",
			KillPoint{Kind: KillNone}, KillPoint{Kind: KillResponse}, KillPoint{Kind: KillDBWrite, N: 1}))
		defer dumpOnFailure(t, rep)
		if got := strings.Join(rep.Learned.Endpoints, ","); got != "POST /v1/captures,POST /v1/holds" {
			t.Errorf("learned endpoints %q", got)
		}
		if r := roundAt(t, rep, "response"); !r.Passed {
			t.Errorf("response round failed %v: the hold is replayed and the capture made once", r.Checks)
		}
		r := roundAt(t, rep, "db-write:1")
		once := check(r, CheckEffectOnce)
		if once.Passed || !strings.Contains(once.Detail, "capture") || strings.Contains(once.Detail, "hold") {
			t.Errorf("db-write:1 effect-once = %+v, want the capture duplicated and the hold not", once)
		}
		if ks := check(r, CheckKeyStable); ks.Passed || !strings.Contains(ks.Detail, "POST /v1/captures") {
			t.Errorf("db-write:1 key-stable = %+v, want the capture's keys", ks)
		}
	})
	t.Run("nokey", func(t *testing.T) {
		t.Parallel()
		rep := run(t, shellConfig(t, "nokey.sh", KillPoint{Kind: KillResponse}))
		defer dumpOnFailure(t, rep)
		r := rep.Rounds[0]
		if check(r, CheckKeyPresent).Passed {
			t.Error("key-present passed without a key")
		}
		if once := check(r, CheckEffectOnce); once.Passed || !strings.HasPrefix(once.Detail, "duplicated") {
			t.Errorf("effect-once = %+v, want duplicated: no key executes every time", once)
		}
	})
	t.Run("bodydrift", func(t *testing.T) {
		t.Parallel()
		rep := run(t, shellConfig(t, "bodydrift.sh", KillPoint{Kind: KillAfterResponse}))
		defer dumpOnFailure(t, rep)
		r := rep.Rounds[0]
		if check(r, CheckPayloadFrozen).Passed {
			t.Error("payload-frozen passed with a body changed per attempt")
		}
		if !check(r, CheckKeyStable).Passed || !check(r, CheckEffectOnce).Passed {
			t.Errorf("key-stable or effect-once failed with a stable key: %+v", r.Checks)
		}
		conflict := false
		for _, q := range r.EffectRequests {
			conflict = conflict || (q.Result == ResultConflict && q.Status == 422)
		}
		if !conflict {
			t.Errorf("no 422 in %+v", r.EffectRequests)
		}
	})
}

// The handler's DATABASE_URL and PG* variables work with plain psql, land
// in the run's schema, and keep the settings of the DSN's own options.
func TestHandlerEnvironmentWithPlainPsql(t *testing.T) {
	t.Parallel()
	cfg := shellConfig(t, "", KillPoint{Kind: KillNone})
	withOptions := "options=-c%20statement_timeout%3D4321"
	switch {
	case !strings.Contains(cfg.DSN, "://"):
		t.Skip("the test DSN is not a URL")
	case strings.Contains(cfg.DSN, "?"):
		cfg.DSN += "&" + withOptions
	default:
		cfg.DSN += "?" + withOptions
	}
	cfg.MaxAttempts = 1
	cfg.Handler = `cat >/dev/null
psql -X -q -t -A -v ON_ERROR_STOP=1 -c "select 'env ' || current_schema() || ' ' || current_setting('statement_timeout')" &&
psql -X -q -t -A -v ON_ERROR_STOP=1 "$DATABASE_URL" -c "select 'url ' || current_schema() || ' ' || current_setting('statement_timeout')" &&
psql -X -q -v ON_ERROR_STOP=1 -c "insert into intents (message_id, payload, key) values ('m', '{}', 'k')" &&
printf 'provider %s\n' "$(curl -sS -X POST -H 'Idempotency-Key: k' --data '{"valor":"1.00"}' "$PROVIDER_URL/v1/charges")"`
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	r := rep.Rounds[0]
	out := r.Attempts[0].Stdout
	for _, want := range []string{
		"env " + rep.Schema + " 4321ms",
		"url " + rep.Schema + " 4321ms",
		`provider {"id":"ch_1","status":"succeeded"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("handler output %q lacks %q", out, want)
		}
	}
	if !r.Passed || r.Writes != 1 {
		t.Errorf("round passed %v with %d writes, want a pass with 1", r.Passed, r.Writes)
	}
}

// An attempt that fails on its own before the kill point (here the
// provider's 500-once) does not use the kill up: the next attempt is killed
// there, and the correct handler still charges once.
func TestKillStaysArmedUntilItLands(t *testing.T) {
	t.Parallel()
	cfg := shellConfig(t, "intent.sh", KillPoint{Kind: KillResponse})
	cfg.Fault = ProviderFault{FailOnce: true}
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	r := rep.Rounds[0]
	var outcomes []string
	for _, a := range r.Attempts {
		outcomes = append(outcomes, a.Outcome)
	}
	if got := strings.Join(outcomes, ","); !r.KillReached || got != "failed,killed,acked" {
		t.Errorf("kill reached %v, outcomes %s; want failed,killed,acked", r.KillReached, got)
	}
	if !r.Passed {
		t.Errorf("intent.sh failed %v", r.Checks)
	}
}

// A --deliver server in sh + socat + psql + curl, killed and restarted
// like any server: the intent design passes at every kill point, including
// the write that is its last act before answering.
func TestShellServerHandler(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("socat"); err != nil {
		t.Skip("socat not installed")
	}
	port, err := serverPort()
	if err != nil {
		t.Fatal(err)
	}
	kill := []KillPoint{{Kind: KillNone}, {Kind: KillDBWrite, N: 2}}
	if testenv.Full() {
		kill = append(kill, KillPoint{Kind: KillResponse}, KillPoint{Kind: KillConcurrent, N: 2})
	}
	cfg := shellConfig(t, "", kill...)
	cfg.Handler = fmt.Sprintf("sh ../testdata/restart/sh/server.sh %d", port)
	cfg.Delivery.URL = fmt.Sprintf("http://127.0.0.1:%d/hook", port)
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictPass {
		t.Fatalf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
	}
	for _, kp := range ran(t, rep, "response", "db-write:2") {
		if r := roundAt(t, rep, kp); !r.KillReached {
			t.Errorf("round %s: kill not reached", kp)
		}
	}
}
