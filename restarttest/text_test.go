package restarttest

import (
	"strings"
	"testing"
)

// With a broker, an attempt is a consumer process's run: the broker, not
// idemcheck, decides which copy of the message it gets.
func TestTextNamesConsumersWithABroker(t *testing.T) {
	round := Round{Index: 1, KillPoint: "concurrent:2", Attempts: []Attempt{
		{Delivery: 1, Index: 1, Outcome: OutcomeAcked},
		{Delivery: 2, Index: 1, Outcome: OutcomeFailed, Stderr: "boom"},
	}}
	for broker, want := range map[string][]string{
		"":      {"delivery 2 attempt 1", "stderr of delivery 2 attempt 1"},
		"queue": {"consumer 2 attempt 1", "stderr of consumer 2 attempt 1"},
	} {
		var out strings.Builder
		rep := &Report{Broker: broker, Verdict: VerdictFail, Rounds: []Round{round}}
		if err := WriteText(&out, rep, nil); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("broker %q: output lacks %q:\n%s", broker, w, out.String())
			}
		}
	}
}
