package restarttest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// localOrderConfig runs the localorder server (testdata/restart/localorder)
// in --deliver mode; its only effect is an order row in its own table.
func localOrderConfig(t *testing.T, args string, effectSQL ...string) Config {
	t.Helper()
	port, err := serverPort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	return Config{
		Handler:     strings.TrimSpace(handler(t, "localorder") + " " + args + " " + addr),
		Delivery:    Delivery{URL: "http://" + addr + "/orders"},
		Message:     readTestdata(t, "message.json"),
		Setup:       string(readTestdata(t, "localorder/setup.sql")),
		EffectSQL:   effectSQL,
		MaxAttempts: 4,
		Timeout:     attemptLimit,
		Backoff:     30 * time.Millisecond,
		DSN:         dsn(t),
	}
}

const countOrders = "select count(*) from orders"

// The second article's fix 1: key claimed, order written and key completed
// in one transaction. Its effect is only in its own database, seen through
// --effect-sql, and it holds at every kill point.
func TestLocalEffectInOneTransactionPasses(t *testing.T) {
	t.Parallel()
	cfg := localOrderConfig(t, "", countOrders)
	// No response kill: it makes no effect request, so that kill point is
	// never reached and the run would be incomplete.
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillDBWrite, N: 1})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictPass {
		t.Fatalf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
	}
	if l := rep.Learned.LocalEffects; len(l) != 1 || l[0].Query != countOrders || l[0].Count != 1 {
		t.Fatalf("learned local effects %+v, want %q counting 1", l, countOrders)
	}
	r := roundAt(t, rep, "db-write:1")
	if !r.KillReached || len(r.LocalEffects) != 1 || r.LocalEffects[0].Count != 1 || *r.LocalEffects[0].Expected != 1 {
		t.Errorf("db-write:1: reached %v, local effects %+v", r.KillReached, r.LocalEffects)
	}
	if c := check(r, CheckEffectOnce); !c.Applicable || !c.Passed {
		t.Errorf("db-write:1 effect-once %+v, want an applicable pass", c)
	}
}

// Committing the order before the key: a crash between the two commits
// makes the redelivery write a second order, named by the query.
func TestLocalEffectOrderBeforeKeyFails(t *testing.T) {
	t.Parallel()
	cfg := localOrderConfig(t, "-order-first", countOrders)
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillDBWrite, N: 1})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictFail {
		t.Fatalf("verdict %s, want fail", rep.Verdict)
	}
	r := roundAt(t, rep, "db-write:1")
	want := "duplicated local effect (select count(*) from orders counted 2, the clean round 1)"
	if c := check(r, CheckEffectOnce); c.Passed || c.Detail != want {
		t.Errorf("db-write:1 effect-once %+v, want %q", c, want)
	}
	if !strings.Contains(rep.Summary, want) {
		t.Errorf("summary %q", rep.Summary)
	}
}

// Without a provider request and without --effect-sql there is nothing to
// judge: no verdict, never "lost".
func TestNothingToJudgeIsNoVerdict(t *testing.T) {
	t.Parallel()
	rep, env := runNoVerdict(t, localOrderConfig(t, ""))
	// The advice names the tables the clean round added rows to (an order
	// and its key), each with the count that would judge it.
	want := "nothing to judge; it added rows to idempotency_keys (+1), orders (+1): count the table that is its effect with --effect-sql 'select count(*) from idempotency_keys' or --effect-sql 'select count(*) from orders'"
	if !strings.Contains(env.Error(), want) {
		t.Errorf("error %q, want it to contain %q", env, want)
	}
	if len(rep.Rounds) != 1 || rep.Rounds[0].KillPoint != KillNone {
		t.Fatalf("rounds %v, want the clean round only", killPoints(rep))
	}
	if c := check(rep.Rounds[0], CheckEffectOnce); c.Applicable || strings.Contains(c.Detail, "lost") {
		t.Errorf("effect-once %+v, want not applicable", c)
	}
}

func TestBadEffectSQLIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	for query, want := range map[string]string{
		"select count(*) from nosuchtable": "does not exist",
		"select 'x'":                       "not an integer",
		"select 1, 2":                      "2 columns",
		"select 1 where false":             "no row",
	} {
		t.Run(want, func(t *testing.T) {
			t.Parallel()
			cfg := shellConfig(t, "intent.sh", KillPoint{Kind: KillNone})
			cfg.EffectSQL = []string{query}
			_, err := Run(t.Context(), cfg)
			if err == nil || !strings.Contains(err.Error(), query) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: err = %v, want it named with %q", query, err, want)
			}
		})
	}
}

// Checks that had nothing to look at are not applicable, never passed.
func TestChecksWithNothingToLookAtAreNotApplicable(t *testing.T) {
	r := Round{KillPoint: "request", Attempts: []Attempt{{Delivery: 1, Index: 1, Outcome: OutcomeAcked}}}
	r.Checks = runChecks(&r, expectation{})
	for _, c := range r.Checks {
		applicable := c.Name == CheckAcked
		if c.Applicable != applicable || (!applicable && c.Passed) {
			t.Errorf("%s: applicable %v passed %v (%s)", c.Name, c.Applicable, c.Passed, c.Detail)
		}
	}
	one := Round{KillPoint: "none", Attempts: r.Attempts, EffectRequests: []EffectRequest{
		{Endpoint: "POST /v1/charges", IdempotencyKey: "k", Result: ResultExecuted},
	}}
	one.Effects = tally(one.EffectRequests)
	one.Checks = runChecks(&one, expectation{endpoints: []string{"POST /v1/charges"}})
	for _, name := range []string{CheckKeyStable, CheckPayloadFrozen} {
		if c := check(one, name); c.Applicable || c.Passed {
			t.Errorf("one request: %s = %+v, want not applicable: nothing to compare", name, c)
		}
	}
	if c := check(one, CheckEffectOnce); !c.Applicable || !c.Passed {
		t.Errorf("one request: effect-once = %+v", c)
	}
}

// A summary names every distinct failure once, the most serious first:
// a lost and unacknowledged round and an only unacknowledged one give
// "lost" and one "not acknowledged".
func TestSummaryNamesEachFailureOnceMostSeriousFirst(t *testing.T) {
	unacked := []Attempt{{Delivery: 1, Index: 3, Outcome: OutcomeFailed, ExitCode: new(int)}}
	lost := Round{KillPoint: "request", Attempts: unacked}
	lost.Checks = runChecks(&lost, expectation{endpoints: []string{"POST /v1/charges"}})
	onlyUnacked := Round{KillPoint: "response", Attempts: unacked, EffectRequests: []EffectRequest{
		{Endpoint: "POST /v1/charges", IdempotencyKey: "k", Result: ResultExecuted},
	}}
	onlyUnacked.Effects = tally(onlyUnacked.EffectRequests)
	onlyUnacked.Checks = runChecks(&onlyUnacked, expectation{endpoints: []string{"POST /v1/charges"}})
	rep := &Report{Rounds: []Round{onlyUnacked, lost}}
	finishReport(rep)
	want := "FAIL 2/2 rounds: lost charge (0 effects at POST /v1/charges) in round request; not acknowledged (delivery 1 after 3 attempt(s), last: exit 0) in rounds response, request"
	if rep.Summary != want {
		t.Errorf("summary %q\nwant    %q", rep.Summary, want)
	}
}

func TestEffectSQLAdviceNamesAtMostThreeTables(t *testing.T) {
	before := map[string]int64{"accounts": 2, "orders": 0}
	after := map[string]int64{"accounts": 2, "orders": 1, "ledger": 2, "keys": 1, "outbox": 1}
	got := effectSQLAdvice(grownTables(before, after))
	want := "it added rows to keys (+1), ledger (+2), orders (+1), 1 more: count the table that is its effect with --effect-sql 'select count(*) from keys' or --effect-sql 'select count(*) from ledger' or --effect-sql 'select count(*) from orders', or send its effect requests to $PROVIDER_URL"
	if got != want {
		t.Errorf("advice\n%s\nwant\n%s", got, want)
	}
	if got := effectSQLAdvice(grownTables(before, before)); got != nothingToJudgeAdvice {
		t.Errorf("no growth: %q", got)
	}
}

// A lost effect after a killed attempt, when a later attempt acknowledged
// the message without a request, names the cause: the unfinished intent
// taken for done. With requests not pinned to their attempts, or after an
// attempt that wrote nothing, the loss is stated alone.
func TestLostEffectAfterAKillNamesTheStartedIntent(t *testing.T) {
	exp := expectation{endpoints: []string{"POST /v1/charges"}}
	taken := Round{KillPoint: "request", Attempts: []Attempt{
		{Delivery: 1, Index: 1, Outcome: OutcomeKilled, Writes: 1},
		{Delivery: 1, Index: 2, Outcome: OutcomeAcked, ExitCode: new(int)},
	}}
	taken.Checks = runChecks(&taken, exp)
	if c := check(taken, CheckEffectOnce); c.Passed || !strings.Contains(c.Detail, "started intent") {
		t.Errorf("killed, then acked without a request: effect-once = %+v, want the started intent named", c)
	}
	plain := Round{KillPoint: "request", Attempts: []Attempt{
		{Delivery: 1, Index: 1, Outcome: OutcomeKilled}, // wrote nothing: left nothing to take for done
		{Delivery: 1, Index: 2, Outcome: OutcomeAcked, ExitCode: new(int)},
	}}
	plain.Checks = runChecks(&plain, exp)
	if c := check(plain, CheckEffectOnce); c.Passed || strings.Contains(c.Detail, "started intent") {
		t.Errorf("killed before any write: effect-once = %+v, want the loss alone", c)
	}
}
