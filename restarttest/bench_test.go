package restarttest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkRoundOverhead measures what a round costs beyond the handler's
// own run time: schema reset and setup, provider and model reset, process
// start and reaping, checks. The handler's measured run time is subtracted
// and reported apart.
//
// exit0 never touches the database. psql-insert writes one row, through
// the database proxy (as every handler does) or straight to the server
// (its own DSN; PGOPTIONS still names the round's schema), so the two show
// what the proxy adds to a handler's run time.
func BenchmarkRoundOverhead(b *testing.B) {
	b.Run("exit0", func(b *testing.B) { benchRounds(b, "exit 0") })
	if _, err := exec.LookPath("psql"); err != nil {
		return
	}
	insert := ` -X -q -v ON_ERROR_STOP=1 -c "insert into intents values ('m1', 'p')"`
	b.Run("psql-insert/proxy", func(b *testing.B) { benchRounds(b, "psql"+insert) })
	b.Run("psql-insert/direct", func(b *testing.B) { benchRounds(b, `psql "$BENCH_UPSTREAM"`+insert) })
}

func benchRounds(b *testing.B, handler string) {
	cfg := Config{
		Handler: handler,
		Message: []byte(`{"message_id":"m1"}`),
		Setup:   "create table intents (message_id text primary key, payload text not null);",
		// Something to judge, and the cost of one count per round.
		EffectSQL: []string{"select count(*) from intents"},
		DSN:       dsn(b),
		Env:       append(os.Environ(), "BENCH_UPSTREAM="+dsn(b)),
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
	var handlerTime time.Duration
	for _, r := range rep.Rounds {
		for _, a := range r.Attempts {
			if !a.Acked() {
				b.Fatalf("round %d: handler failed: %s", r.Index, a.Stderr)
			}
			handlerTime += time.Duration(a.DurationMS) * time.Millisecond
		}
	}
	n := float64(len(rep.Rounds))
	b.ReportMetric(float64(elapsed-handlerTime)/n/float64(time.Millisecond), "overhead-ms/round")
	b.ReportMetric(float64(handlerTime)/n/float64(time.Millisecond), "handler-ms/round")
}
