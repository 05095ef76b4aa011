package textreport

import (
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/restarttest"
)

func write(t *testing.T, rep *restarttest.Report, style Style) string {
	t.Helper()
	var out strings.Builder
	if err := Write(&out, rep, style); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func passingReport() *restarttest.Report {
	return &restarttest.Report{Handler: "h", Schema: "s", Verdict: restarttest.VerdictPass,
		Summary: "PASS 1/1 rounds: the effect happened exactly once at every kill point",
		Rounds: []restarttest.Round{{Index: 1, KillPoint: "none", Passed: true,
			Checks: []restarttest.Check{{Name: restarttest.CheckKeyPresent, Applicable: true, Passed: true}}}}}
}

func TestStyledOnlyWhenAsked(t *testing.T) {
	rep := passingReport()
	plain := write(t, rep, nil)
	styled := write(t, rep, func(p Part, text string) string { return "[" + text + "]" })
	if strings.Contains(plain, "[") || !strings.Contains(styled, "[PASS]") {
		t.Errorf("plain has escapes or styled has none:\n%q\n%q", plain, styled)
	}
	if !strings.HasSuffix(plain, rep.Summary+"\n") {
		t.Errorf("summary line missing:\n%s", plain)
	}
}

// With a broker, an attempt is a consumer process's run: the broker, not
// idemcheck, decides which copy of the message it gets.
func TestNamesConsumersWithABroker(t *testing.T) {
	round := restarttest.Round{Index: 1, KillPoint: "concurrent:2", Attempts: []restarttest.Attempt{
		{Delivery: 1, Index: 1, Outcome: restarttest.OutcomeAcked},
		{Delivery: 2, Index: 1, Outcome: restarttest.OutcomeFailed, Stderr: "boom"},
	}}
	for broker, want := range map[string][]string{
		"":      {"delivery 2 attempt 1", "stderr of delivery 2 attempt 1"},
		"queue": {"consumer 2 attempt 1", "stderr of consumer 2 attempt 1"},
	} {
		out := write(t, &restarttest.Report{Broker: broker, Verdict: restarttest.VerdictFail, Rounds: []restarttest.Round{round}}, nil)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("broker %q: output lacks %q:\n%s", broker, w, out)
			}
		}
	}
}

// A check with nothing to look at is marked –, never ✓.
func TestMarksNotApplicable(t *testing.T) {
	rep := passingReport()
	rep.Rounds[0].Checks = append(rep.Rounds[0].Checks, restarttest.Check{Name: restarttest.CheckKeyStable, Detail: "one request: nothing to compare"})
	out := write(t, rep, nil)
	if !strings.Contains(out, "– key-stable") || strings.Contains(out, "✓ key-stable") {
		t.Errorf("key-stable not marked not applicable:\n%s", out)
	}
}

// A failed attempt's output is shown as a bounded, printable tail that
// keeps the end of a long line, where the message is.
func TestFailedAttemptTailIsPrintable(t *testing.T) {
	rep := &restarttest.Report{Verdict: restarttest.VerdictFail, Rounds: []restarttest.Round{{Index: 1, KillPoint: "none",
		Attempts: []restarttest.Attempt{{Delivery: 1, Index: 1, Outcome: restarttest.OutcomeFailed,
			Stderr: "\x1b[31mgarbage\x00\x07\n" + strings.Repeat("x", 500) + " panic: boom\n"}},
		Checks: []restarttest.Check{{Name: restarttest.CheckAcked, Applicable: true}}}}}
	out := write(t, rep, nil)
	if !strings.Contains(out, "panic: boom") || strings.Contains(out, strings.Repeat("x", 201)) {
		t.Errorf("tail missing or not cut:\n%s", out)
	}
	for _, c := range out {
		if c < 0x20 && c != '\n' {
			t.Fatalf("output carries control character %q:\n%q", c, out)
		}
	}
}

// A concurrent round says whether its deliveries really met.
func TestShowsTheRendezvous(t *testing.T) {
	rep := passingReport()
	rep.Rounds[0].KillPoint = "concurrent:2"
	rep.Rounds[0].Rendezvous = []restarttest.Rendezvous{
		{Point: restarttest.PointFirstWrite, Deliveries: 2, Arrived: 2, Reached: true, WaitedMS: 12},
		{Point: restarttest.PointFirstRequest, Deliveries: 2, Arrived: 1, Note: "delivery 2 made no effect request"},
	}
	out := write(t, rep, nil)
	for _, w := range []string{"rendezvous at the first write: 2 of 2 deliveries held and released together after 12ms",
		"rendezvous at the first effect request not reached: 1 of 2 deliveries (delivery 2 made no effect request)"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// Keys that share a long prefix are shortened only as far as tells them
// apart.
func TestShortensKeysApart(t *testing.T) {
	rep := passingReport()
	rep.Rounds[0].Attempts = []restarttest.Attempt{{Delivery: 1, Index: 1, Outcome: restarttest.OutcomeAcked}}
	rep.Rounds[0].EffectRequests = []restarttest.EffectRequest{
		{Delivery: 1, Attempt: 1, Endpoint: "POST /v1/charges", IdempotencyKey: "2026-12-03T07:00:00.123", Result: restarttest.ResultExecuted, Status: 200, EffectID: "ch_1"},
		{Delivery: 1, Attempt: 1, Endpoint: "POST /v1/charges", IdempotencyKey: "2026-12-03T07:00:00.456", Result: restarttest.ResultExecuted, Status: 200, EffectID: "ch_2"},
	}
	out := write(t, rep, nil)
	if !strings.Contains(out, "key 2026-12-03T07:00:00.1…") || !strings.Contains(out, "key 2026-12-03T07:00:00.4…") || !strings.Contains(out, "200 executed ch_2") {
		t.Errorf("keys not told apart:\n%s", out)
	}
}

// A description longer than its column ("…, then exit 1") keeps a gap
// before the timing, instead of running into it ("exit 1 747ms").
func TestLongAttemptDescriptionKeepsAGap(t *testing.T) {
	one := 1
	rep := &restarttest.Report{Verdict: restarttest.VerdictFail, Rounds: []restarttest.Round{{Index: 1, KillPoint: "db-commit-lost:1",
		Attempts: []restarttest.Attempt{{Delivery: 1, Index: 1, Outcome: restarttest.OutcomeFailed, FaultAt: "write 1", ExitCode: &one, DurationMS: 747}}}}}
	out := write(t, rep, nil)
	if !strings.Contains(out, "then exit 1  747ms") {
		t.Errorf("no gap between the description and the timing:\n%s", out)
	}
}
