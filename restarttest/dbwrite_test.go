package restarttest

import (
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/internal/testenv"
)

func claimThenKeyConfig(t *testing.T, kill ...KillPoint) Config {
	cfg := shellConfig(t, "claimthenkey.sh", kill...)
	cfg.Setup = string(readTestdata(t, "sh/claimthenkey.sql"))
	return cfg
}

// Two back-to-back commits whose bug lives only between them: the kill
// lands after the first commit and before the second, every time, so the
// lost charge is found every time — in sh (psql, autocommit) and in Go
// (pgx, BEGIN … COMMIT, extended protocol).
func TestDBWriteKillLandsBetweenBackToBackCommits(t *testing.T) {
	t.Parallel()
	handlers := map[string]func(t *testing.T, kill ...KillPoint) Config{
		"sh": func(t *testing.T, kill ...KillPoint) Config { return claimThenKeyConfig(t, kill...) },
		"go": func(t *testing.T, kill ...KillPoint) Config {
			cfg := exampleConfig(t, "claimthenkey")
			cfg.KillPoints = kill
			return cfg
		},
	}
	for name, config := range handlers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			clean := run(t, config(t, KillPoint{Kind: KillNone}, KillPoint{Kind: KillDBWrite, N: 2}))
			if clean.Verdict != VerdictPass {
				dumpOnFailure(t, clean)
				t.Fatalf("clean and db-write:2 rounds: verdict %s, failed %v", clean.Verdict, failedChecks(clean))
			}
			if w := clean.Rounds[0].Attempts[0].Writes; w != 2 {
				t.Fatalf("the clean round counted %d writes, want 2 (claim, key)", w)
			}
			n := testenv.Repeat(t)
			failed := 0
			for i := 0; i < n; i++ {
				rep := run(t, config(t, KillPoint{Kind: KillDBWrite, N: 1}))
				r := rep.Rounds[0]
				a := r.Attempts[0]
				once := check(r, CheckEffectOnce)
				if r.KillReached && a.KilledAt == "db-write:1" && a.Writes == 1 && !once.Passed && strings.HasPrefix(once.Detail, "lost ") {
					failed++
					continue
				}
				dumpOnFailure(t, rep)
				t.Errorf("run %d: kill reached %v, first attempt killed at %q after %d writes, effect-once %+v", i+1, r.KillReached, a.KilledAt, a.Writes, once)
			}
			if failed != n {
				t.Errorf("claimthenkey (%s) failed db-write:1 in %d of %d runs, want %d of %d", name, failed, n, n, n)
			}
		})
	}
}

// db-commit-lost: the commit happened, its reply never reached the
// handler, which lives on with a broken connection; then redelivery.
func TestDBCommitLost(t *testing.T) {
	t.Parallel()
	rep := run(t, claimThenKeyConfig(t, KillPoint{Kind: KillDBCommitLost, N: 1}))
	defer dumpOnFailure(t, rep)
	r := rep.Rounds[0]
	a := r.Attempts[0]
	if !r.KillReached || a.FaultAt != "db-commit-lost:1" || a.KilledAt != "" || a.Signal != "" {
		t.Fatalf("first attempt %+v: want the commit reply dropped and the handler not killed", a)
	}
	if a.Outcome != OutcomeFailed || a.Writes != 1 {
		t.Errorf("first attempt outcome %s after %d writes, want failed (psql lost its connection) after 1", a.Outcome, a.Writes)
	}
	if once := check(r, CheckEffectOnce); once.Passed || !strings.HasPrefix(once.Detail, "lost ") {
		t.Errorf("effect-once %+v, want lost", once)
	}
	if !strings.Contains(describeOutcome(a), "commit reply dropped at db-commit-lost:1") {
		t.Errorf("outcome described as %q", describeOutcome(a))
	}
}
