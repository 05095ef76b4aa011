package restarttest

import (
	"context"
	"testing"
	"time"
)

// BenchmarkRoundOverhead measures what a round costs beyond the handler's
// own run time: schema reset and setup, triggers, provider and model reset,
// process start and reaping, checks. The handler is trivial (`exit 0`), and
// its measured run time is subtracted.
func BenchmarkRoundOverhead(b *testing.B) {
	cfg := Config{
		Handler: "exit 0",
		Message: []byte(`{"message_id":"m1"}`),
		Setup:   "create table intents (message_id text primary key, payload text not null);",
		// Something to judge, and the cost of one count per round.
		EffectSQL: []string{"select count(*) from intents"},
		DSN:       dsn(b),
	}
	plan := make([]KillPoint, b.N)
	for i := range plan {
		plan[i] = KillPoint{Kind: KillNone}
	}
	cfg.KillPoints = plan
	b.ResetTimer()
	start := time.Now()
	rep, err := Run(context.Background(), cfg)
	elapsed := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	var handler time.Duration
	for _, r := range rep.Rounds {
		for _, a := range r.Attempts {
			handler += time.Duration(a.DurationMS) * time.Millisecond
		}
	}
	n := float64(len(rep.Rounds))
	b.ReportMetric(float64(elapsed-handler)/n/float64(time.Millisecond), "overhead-ms/round")
	b.ReportMetric(float64(handler)/n/float64(time.Millisecond), "handler-ms/round")
}
