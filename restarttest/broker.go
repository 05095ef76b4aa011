package restarttest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// brokerOps is what differs between RabbitMQ and NATS JetStream: publishing,
// asking the broker what is still pending, and cleaning up.
type brokerOps interface {
	// where names the queue or consumer, for messages and the report.
	where() string
	// env is the broker part of the handler's environment.
	env() []string
	// reset empties the queue or consumer between rounds.
	reset(ctx context.Context) error
	publish(ctx context.Context, body []byte, messageID string) error
	// pending asks the broker what is not acknowledged yet.
	pending(ctx context.Context) (brokerPending, error)
	// remove deletes what the run created and checks nothing is left.
	remove(ctx context.Context) error
}

// redeliveryTimer is a broker that redelivers what a dead consumer held on a
// timer (JetStream's AckWait), not when the consumer's connection closes
// (RabbitMQ): it is told when none of the round's consumers runs anymore.
type redeliveryTimer interface {
	consumersDied(ctx context.Context) error
}

// brokerPending is the broker's view of the round's messages.
type brokerPending struct {
	ready    int // waiting for a consumer
	unacked  int // delivered, not acknowledged (-1: this broker cannot tell while its consumer lives)
	rejected int // dead-lettered: rejected without requeue
}

func (p brokerPending) settled() bool { return p.ready == 0 && p.unacked <= 0 }

func (p brokerPending) String() string {
	switch {
	case p.rejected > 0:
		return fmt.Sprintf("the consumer rejected the message (%d dead-lettered)", p.rejected)
	case p.unacked > 0:
		return fmt.Sprintf("the broker still waits for an acknowledgement (%d unacknowledged, %d ready)", p.unacked, p.ready)
	}
	return fmt.Sprintf("the broker still holds the message (%d ready)", p.ready)
}

// brokerTransport runs the handler as a long-running consumer: idemcheck
// publishes, the broker delivers, a kill closes the consumer's connection
// and the broker redelivers to the consumer started next. Whether a message
// was acknowledged is what the broker says; idemcheck never acks.
type brokerTransport struct {
	h   *harness
	ops brokerOps
	url string
	// idle is how long the handler must be quiet, with nothing ready on
	// the broker, before the round is over; doubled for each rerun of the
	// round (redos).
	idle  time.Duration
	redos int
	// interrupted is set when a wave took the consumers for done after the
	// quiet, but the broker still held the message: a consumer slower than
	// the idle window was stopped mid-work, or one holds the message
	// without acknowledging it. RabbitMQ cannot tell them apart; a longer
	// quiet can.
	interrupted bool
}

// maxRedos is how many times a round the harness interrupted is run
// again, each with twice the idle window.
const maxRedos = 2

// redo reports whether the round just run must be run again because the
// harness may have stopped a consumer that was still working, and doubles
// the idle window for that rerun. After maxRedos the round stands: the
// consumer holds the message without acknowledging it. The next round
// starts from the configured window again.
func (b *brokerTransport) redo(redos int) bool {
	was := b.interrupted
	b.interrupted, b.redos = false, 0
	if !was || redos >= maxRedos {
		return false
	}
	b.redos = redos + 1
	return true
}

// quietWindow is the idle window of the round being run.
func (b *brokerTransport) quietWindow() time.Duration { return b.idle << b.redos }

func newBrokerTransport(h *harness, ops brokerOps, rawURL string, idle time.Duration) *brokerTransport {
	h.env = append(h.env, ops.env()...)
	return &brokerTransport{h: h, ops: ops, url: rawURL, idle: idle}
}

func (b *brokerTransport) describe(rep *Report) { rep.Broker = b.ops.where() }

func (b *brokerTransport) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.ops.remove(ctx); err != nil {
		return &EnvError{Err: err}
	}
	return nil
}

// judge marks a concurrent round whose copies one consumer handled in turn.
func (b *brokerTransport) judge(_ context.Context, rs *roundState, r *Round) error {
	if rs.kp.Concurrent() {
		r.RaceNotRun = raceNotRun(*r, rs.kp.Deliveries())
	}
	return nil
}

func (b *brokerTransport) failure() error   { return nil }
func (b *brokerTransport) oneProcess() bool { return false }

// deliver publishes the message once per delivery and runs one consumer
// per delivery until the broker has nothing pending and the handler is
// quiet, restarting a consumer that died (killed, crashed) after the
// backoff, up to the attempts.
func (b *brokerTransport) deliver(ctx context.Context, rs *roundState) {
	if err := b.ops.reset(ctx); err != nil {
		rs.envErr(&EnvError{Err: err})
		return
	}
	if rs.inTurn() {
		// The original until acknowledged (the broker redelivers it after
		// a kill), then the same business message published again: under
		// fresh envelope ids, or its own bytes after the provider forgot.
		b.publishAndConsume(ctx, rs, rs.message(1).body, 1)
		if rs.deliveryAcked(1) && ctx.Err() == nil {
			rs.between()
			b.publishAndConsume(ctx, rs, rs.message(2).body, 2)
		}
		return
	}
	ds := make([]int, rs.deliveries())
	for i := range ds {
		ds[i] = i + 1
	}
	b.publishAndConsume(ctx, rs, rs.h.cfg.Message, ds...)
}

// publishAndConsume publishes body once per delivery in ds and runs their
// consumers in waves. A wave runs the consumers until the broker has
// nothing pending and the handler is quiet. RabbitMQ cannot tell an idle
// consumer that holds the message from one that acknowledged it: once the
// consumers are stopped, a message back in the queue starts another wave.
func (b *brokerTransport) publishAndConsume(ctx context.Context, rs *roundState, body []byte, ds ...int) {
	id := messageID(body)
	for range ds {
		if err := b.ops.publish(ctx, body, id); err != nil {
			rs.envErr(&EnvError{Err: err})
			return
		}
	}
	next := make([]int, len(ds))
	for i := range next {
		next[i] = 1
	}
	for ctx.Err() == nil {
		last, quiet := b.wave(ctx, rs, ds, next)
		p, err := b.finalPending(ctx)
		if err != nil {
			rs.envErr(&EnvError{Err: err})
			return
		}
		more := false
		for i, a := range last {
			if a == nil {
				continue
			}
			if !p.settled() && a.rec.Outcome == OutcomeAcked {
				a.rec.Outcome, a.rec.Error = OutcomeFailed, p.String()
				b.interrupted = b.interrupted || quiet
			}
			more = more || next[i] <= rs.h.cfg.MaxAttempts
		}
		if p.settled() || !more {
			return
		}
	}
}

// wave runs one consumer per delivery until the round settles or their
// attempts run out, and returns each delivery's last attempt and whether
// the quiet settled the wave (the harness stopped the consumers).
func (b *brokerTransport) wave(ctx context.Context, rs *roundState, ds, next []int) ([]*attemptRun, bool) {
	settled := make(chan struct{})
	stopWatch := make(chan struct{})
	var watch sync.WaitGroup
	var quiet bool
	watch.Add(1)
	go func() {
		defer watch.Done()
		quiet = b.watch(ctx, rs, settled, stopWatch)
	}()
	var wg sync.WaitGroup
	last := make([]*attemptRun, len(ds))
	for i, d := range ds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last[i] = b.consume(ctx, rs, d, &next[i], settled)
		}()
	}
	wg.Wait()
	close(stopWatch)
	watch.Wait()
	return last, quiet
}

// finalPending asks the broker once the consumers are gone: it waits until
// the broker no longer counts a consumer (so the messages a killed one held
// are back), then looks a few times more, since a closed connection's
// messages return asynchronously.
func (b *brokerTransport) finalPending(ctx context.Context) (brokerPending, error) {
	deadline := time.Now().Add(2 * time.Second)
	var p brokerPending
	var err error
	for p.unacked = -1; p.unacked < 0 && time.Now().Before(deadline); {
		if p, err = b.ops.pending(ctx); err != nil {
			return p, err
		}
		if p.unacked < 0 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	for i := 0; i < 3 && p.settled(); i++ {
		time.Sleep(20 * time.Millisecond)
		if p, err = b.ops.pending(ctx); err != nil {
			return p, err
		}
	}
	return p, nil
}

// consume runs delivery d's consumer until the round settles or its
// attempts run out, and returns its last attempt. *next is the number of
// the delivery's next attempt.
func (b *brokerTransport) consume(ctx context.Context, rs *roundState, d int, next *int, settled <-chan struct{}) *attemptRun {
	end := deliveryLoop{
		delivery: d,
		first:    *next,
		try: func(ctx context.Context, a *attemptRun) time.Duration {
			b.runConsumer(ctx, rs, a, settled)
			return 0
		},
		settled: settled,
		afterFailure: func() {
			select {
			case <-settled: // the round settled as the consumer died
			default:
				b.consumerDied(ctx, rs)
			}
		},
		// Each copy is a message of its own, and a consumer restarts on the
		// broker's clock, not the harness's holds.
		ownCopies:   true,
		ignoreHolds: true,
	}.run(ctx, rs)
	*next = end.next
	return end.last
}

// consumerDied starts the broker's redelivery timer once no consumer of the
// round runs: a consumer still working must not get the message again.
func (b *brokerTransport) consumerDied(ctx context.Context, rs *roundState) {
	t, ok := b.ops.(redeliveryTimer)
	if !ok {
		return
	}
	rs.mu.Lock()
	running := len(rs.inflight)
	rs.mu.Unlock()
	if running > 0 {
		return
	}
	if err := t.consumersDied(ctx); err != nil {
		rs.envErr(&EnvError{Err: err})
	}
}

// runConsumer starts the consumer and waits until it dies or the round
// settles; it reports whether the round settled.
func (b *brokerTransport) runConsumer(ctx context.Context, rs *roundState, a *attemptRun, settled <-chan struct{}) bool {
	started := time.Now()
	rs.begin(a)
	defer rs.end(a, started)
	p, err := startGroup(rs.h.cfg.Handler, rs.h.env, nil)
	if err != nil {
		a.rec.Outcome, a.rec.Error = OutcomeError, err.Error()
		return false
	}
	a.attach(p)
	timeout, delay, stop := rs.attemptTimers(a)
	defer stop()
	done := false
	for !done {
		select {
		case <-p.exited:
			done = true
		case <-settled:
			// The broker has nothing pending: the consumer's work is over.
			p.kill()
			<-p.done
			b.record(a, p)
			rs.settle(a, true)
			return true
		case <-delay:
			rs.kill(a, false)
			delay = nil
		case <-timeout:
			a.fire("timeout")
		case <-ctx.Done():
			a.fire("interrupted")
			done = true
		}
	}
	<-p.done
	b.record(a, p)
	rs.settle(a, false)
	if a.rec.KilledAt == "" && a.rec.Error == "" {
		a.rec.Error = "the consumer exited"
		if code := p.exitCode(); code >= 0 {
			a.rec.Error = fmt.Sprintf("the consumer exited (exit %d)", code)
		}
	}
	return false
}

func (b *brokerTransport) record(a *attemptRun, p *groupProcess) {
	a.mu.Lock()
	a.rec.KilledAt = a.killedAt
	a.rec.Writes = a.writes
	a.mu.Unlock()
	a.rec.Stdout, a.rec.StdoutBytes = p.stdout.String(), p.stdout.Total()
	a.rec.Stderr, a.rec.StderrBytes = p.stderr.String(), p.stderr.Total()
	if p.wasKilled() {
		return // stopped by idemcheck: its exit status says nothing
	}
	code := p.exitCode()
	if a.rec.Signal = p.signal(); a.rec.Signal == "" {
		a.rec.ExitCode = &code
	}
}

// watch closes settled once the broker reports nothing pending and the
// handler has been quiet (no effect request, no write, no consumer start)
// for the idle window; it reports whether it did.
func (b *brokerTransport) watch(ctx context.Context, rs *roundState, settled chan<- struct{}, stop <-chan struct{}) bool {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	lastSeen, quietSince := "", time.Now()
	for {
		select {
		case <-tick.C:
		case <-stop:
			return false
		case <-ctx.Done():
			return false
		}
		p, err := b.ops.pending(ctx)
		if err != nil {
			continue
		}
		seen, busy := b.activity(rs)
		seen += fmt.Sprintf("/%d/%d", p.ready, p.unacked)
		if seen != lastSeen || busy {
			lastSeen, quietSince = seen, time.Now()
			continue
		}
		if time.Since(quietSince) < b.quietWindow() || !p.settled() {
			continue
		}
		close(settled)
		return true
	}
}

// activity summarizes what the handler has done so far, and whether an
// effect request is still being answered or a consumer is dead.
func (b *brokerTransport) activity(rs *roundState) (string, bool) {
	reqs := rs.h.prov.snapshot()
	busy := false
	for _, q := range reqs {
		if q.Result == "" {
			busy = true
		}
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	running := len(rs.inflight)
	return fmt.Sprintf("%d/%d/%d/%d", len(reqs), rs.writes, len(rs.attempts), running), busy || running == 0
}

// messageID is the message's own id when it has one at the top level, so
// the broker's message id and the envelope agree; else a fresh one.
func messageID(body []byte) string {
	var m map[string]any
	if json.Unmarshal(body, &m) == nil {
		for _, k := range []string{"message_id", "messageId", "MessageId", "event_id", "eventId", "id"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return "idemcheck-" + randomHex(8)
}

// raceNotRun says why a concurrent round's copies, delivered through a
// broker, were never handled at once: every write and effect request came
// from one consumer while the rendezvous waited in vain for the others.
// The broker gave that consumer every copy (it held several unacknowledged
// messages at once, a prefetch or a pull batch) and it handled them one
// after the other. "" when more than one consumer worked, or a rendezvous
// was reached.
func raceNotRun(r Round, copies int) string {
	if copies < 2 || len(r.Rendezvous) == 0 {
		return ""
	}
	for _, rv := range r.Rendezvous {
		if rv.Reached {
			return ""
		}
	}
	working := map[int]bool{}
	for _, a := range r.Attempts {
		if a.Writes > 0 {
			working[a.Delivery] = true
		}
	}
	for _, q := range r.EffectRequests {
		if q.Delivery > 0 {
			working[q.Delivery] = true
		}
	}
	if len(working) != 1 {
		return ""
	}
	return fmt.Sprintf("one consumer handled every copy of the %d, one after the other, while the others got none: the broker let it hold several unacknowledged messages at once, so no race was run; let each consumer hold one at a time (pika basic_qos(prefetch_count=1), amqplib channel.prefetch(1), amqp091 Qos(1, 0, false), nats.go PullMaxMessages(1), nats.js max_messages 1)", copies)
}
