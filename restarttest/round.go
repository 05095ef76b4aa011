package restarttest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idemcheck/idemcheck/restarttest/pgproxy"
)

// roundState is the live state of one round: the attempts in flight, the
// kill point, and the hooks the provider and the listener call.
type roundState struct {
	h  *harness
	kp KillPoint // the round's kill
	// planned is the round's kill point as the plan has it: a respell
	// round's kp is the kill of its first delivery.
	planned KillPoint
	start   time.Time

	mu       sync.Mutex
	envError error // a harness or environment failure seen during the round
	attempts []*attemptRun
	inflight map[*attemptRun]bool
	latest   *attemptRun
	writes   int
	commits  []int64 // when each write committed, since start
	// senders maps each effect request to its attempt and its place among
	// that attempt's requests, for the kills around the K-th request.
	senders map[*EffectRequest]sentBy

	resend        *delivered // the re-sent message of a resend or respell round
	resendChanges []EnvelopeChange
	// respellChanges are the values a respell round's re-send spells
	// another way.
	respellChanges []EnvelopeChange
	// forget, in a provider-forgets round, runs between the two
	// deliveries: the provider drops the keys it remembers.
	forget func()
	rv     *rendezvous // a concurrent round's rendezvous; nil otherwise
	gate   *startGate  // a concurrent round over HTTP: the deliveries' start
	holds  *holdCount  // deliveries the harness holds right now
	// killTaker is the copy the kill of a concurrent:N+KILL round landed
	// on (takeKill).
	killTaker *attemptRun
	// serverRequests and serverWrites count, in a concurrent round whose
	// copies one server answers, the requests and writes that cannot be
	// told apart by copy: the server's K-th is the kill point's K-th.
	serverRequests, serverWrites int
}

// sentBy is the attempt an effect request came from and its index among
// the attempt's effect requests (1 for the first).
type sentBy struct {
	a *attemptRun
	k int
	// shared is set when a is the stand-in of a server answering every
	// copy (serverSender): k counts the server's requests.
	shared bool
}

// attemptRun is one attempt while it runs.
type attemptRun struct {
	rec   Attempt
	armed bool // the round's kill point applies to this attempt
	msg   delivered
	gate  *startGate // sent together with the other deliveries' first attempts

	mu       sync.Mutex
	killFn   func()
	group    int // process group of the handler, once started
	killedAt string
	faultAt  string // a kill point injected without killing: db-commit-lost:N
	writes   int
	requests int // effect requests sent so far
	// acked is set once the attempt was acknowledged, for the other
	// deliveries' goroutines to read while this one writes its record.
	acked atomic.Bool
}

func (a *attemptRun) pgid() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.group
}

// fire kills the attempt for reason, once.
func (a *attemptRun) fire(reason string) bool {
	a.mu.Lock()
	if a.killedAt != "" {
		a.mu.Unlock()
		return false
	}
	a.killedAt = reason
	kill := a.killFn
	a.mu.Unlock()
	if kill != nil {
		kill()
	}
	return true
}

// fault records, once, a kill point that drops the commit's reply instead of
// killing: the handler lives on with a broken database connection.
func (a *attemptRun) fault(reason string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.faultAt == "" && a.killedAt == "" {
		a.faultAt = reason
	}
}

// landed is the kill point that hit the attempt, killed or faulted.
func (a *attemptRun) landed() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.killedAt != "" {
		return a.killedAt
	}
	return a.faultAt
}

func (a *attemptRun) killReason() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.killedAt
}

func newRoundState(h *harness, kp KillPoint) *roundState {
	return &roundState{h: h, kp: kp, planned: kp, start: time.Now(), inflight: map[*attemptRun]bool{}, senders: map[*EffectRequest]sentBy{},
		holds: newHoldCount()}
}

// current is the attempt a provider request or a write belongs to: the
// only one in flight, else (outside concurrent rounds) the latest.
func (rs *roundState) current() *attemptRun {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if len(rs.inflight) == 1 {
		for a := range rs.inflight {
			return a
		}
	}
	if rs.kp.Concurrent() {
		return nil
	}
	return rs.latest
}

// onCommit is called by the database proxy after the server committed a
// writing transaction and before the handler has its reply: a db-write
// kill lands exactly here, and db-commit-lost drops the reply.
func (rs *roundState) onCommit(s *pgproxy.Session) pgproxy.Action {
	rs.mu.Lock()
	rs.writes++
	rs.commits = append(rs.commits, time.Since(rs.start).Milliseconds())
	rs.mu.Unlock()
	a, shared := rs.senderOrServer(s.ClientAddr.String(), rs.h.proxy.Addr().Port)
	if a == nil {
		return pgproxy.Deliver
	}
	var n int
	if shared {
		rs.mu.Lock()
		rs.serverWrites++
		n = rs.serverWrites
		rs.mu.Unlock()
	} else {
		a.mu.Lock()
		a.writes++
		n = a.writes
		a.mu.Unlock()
	}
	if !a.armed || n != rs.kp.N {
		return pgproxy.Deliver
	}
	switch rs.kp.Kind {
	case KillDBWrite:
		if rs.kill(a, shared) { // the process group is dead before the reply is dropped
			return pgproxy.Drop
		}
	case KillDBCommitLost:
		if rs.takeKill(a) {
			a.fault(rs.kp.Landing())
			return pgproxy.Drop
		}
	}
	return pgproxy.Deliver
}

// beforeWrite is called by the database proxy before a handler's writing
// statement reaches the server; blocking here holds the write. Nothing is
// held yet: this is where a concurrent:N rendezvous holds each delivery's
// first write.
func (rs *roundState) beforeWrite(ctx context.Context, s *pgproxy.Session) {
	if rs.rv == nil {
		return
	}
	rs.rv.writes.join(ctx, rs.rv.party(rs.sender(s.ClientAddr.String(), rs.h.proxy.Addr().Port)))
}

// sender is the attempt a connection to one of our servers (the provider,
// the database proxy) came from: the only one in flight, else the one whose
// process group owns the connection.
func (rs *roundState) sender(remoteAddr string, serverPort int) *attemptRun {
	if a := rs.current(); a != nil {
		return a
	}
	pgid, ok := senderGroup(remoteAddr, serverPort, rs.h.marker)
	if !ok {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for a := range rs.inflight {
		if a.pgid() == pgid {
			return a
		}
	}
	return nil
}

// senderOrServer is sender, or, when the connection names no attempt
// because one server answers every copy of a concurrent round, the
// attempt standing for that server (serverSender); shared tells which.
func (rs *roundState) senderOrServer(remoteAddr string, serverPort int) (a *attemptRun, shared bool) {
	if a := rs.sender(remoteAddr, serverPort); a != nil {
		return a, false
	}
	a = rs.serverSender()
	return a, a != nil
}

// serverSender is, in a concurrent round whose copies one server process
// answers (--deliver), the attempt whose kill is the server's: the armed
// attempt in flight of the lowest delivery. A request or a write of that
// server cannot be told apart by copy, so it counts for the server as a
// whole, and killing the server kills every copy in flight (killServer).
// Without it such a round's kill never landed: its requests named no
// attempt, and the round passed with nothing killed.
func (rs *roundState) serverSender() *attemptRun {
	if !rs.kp.Concurrent() || !rs.h.transport.oneProcess() {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var pick *attemptRun
	for a := range rs.inflight {
		if a.armed && (pick == nil || a.rec.Delivery < pick.rec.Delivery) {
			pick = a
		}
	}
	return pick
}

// arrived implements providerHooks.
func (rs *roundState) arrived(r *EffectRequest, remoteAddr string) bool {
	a, shared := rs.senderOrServer(remoteAddr, rs.h.prov.port())
	if rs.rv != nil {
		rs.rv.requests.join(context.Background(), rs.rv.party(a))
	}
	if a == nil {
		return false
	}
	var k int
	if shared {
		// Left unattributed in the report: which copy sent it is unknown.
		rs.mu.Lock()
		rs.serverRequests++
		k = rs.serverRequests
		rs.mu.Unlock()
	} else {
		a.mu.Lock()
		a.requests++
		k = a.requests
		a.mu.Unlock()
		rs.h.prov.attribute(r, a.rec.Delivery, a.rec.Index, k)
	}
	rs.mu.Lock()
	rs.senders[r] = sentBy{a: a, k: k, shared: shared}
	rs.mu.Unlock()
	if !a.armed {
		return false
	}
	if rs.kp.Kind == KillRequest && k == rs.kp.RequestIndex() && rs.kill(a, shared) {
		return true
	}
	// A request racing a kill that already happened never got out.
	return a.killReason() != ""
}

// armedAt returns who sent r when r is the K-th request of an armed
// attempt (or of the server standing for every copy) and the round kills
// at kind:K.
func (rs *roundState) armedAt(r *EffectRequest, kind string) (sentBy, bool) {
	if rs.kp.Kind != kind {
		return sentBy{}, false
	}
	rs.mu.Lock()
	s, ok := rs.senders[r]
	rs.mu.Unlock()
	if !ok || !s.a.armed || s.k != rs.kp.RequestIndex() || !rs.takeKill(s.a) {
		return sentBy{}, false
	}
	return s, true
}

// executed implements providerHooks.
func (rs *roundState) executed(r *EffectRequest) bool {
	s, ok := rs.armedAt(r, KillResponse)
	return ok && rs.kill(s.a, s.shared)
}

// responded implements providerHooks.
func (rs *roundState) responded(r *EffectRequest) {
	if s, ok := rs.armedAt(r, KillAfterResponse); ok {
		rs.kill(s.a, s.shared)
	}
}

// deliveries is how many deliveries of the message the round starts at
// once: N in a concurrent round, else one.
func (rs *roundState) deliveries() int { return rs.kp.Deliveries() }

// DefaultRoundTimeout bounds a round's deliveries unless
// Config.RoundTimeout says otherwise: far above what the default three
// attempts of 30s take, short enough that --max-attempts 1000000000 with a
// failing handler ends.
const DefaultRoundTimeout = 10 * time.Minute

// MaxBackoff is where the doubling backoff between redeliveries stops
// (unless Config.Backoff starts above it): a redelivery an hour later
// tests nothing more, and doubling on would overflow.
const MaxBackoff = 5 * time.Second

// nextBackoff doubles a backoff, up to MaxBackoff or the configured one.
func (c *Config) nextBackoff(b time.Duration) time.Duration {
	return min(2*b, max(MaxBackoff, c.Backoff))
}

// roundTimeout is the error of a round whose deliveries did not settle
// within Config.RoundTimeout.
func (rs *roundState) roundTimeout(index int) error {
	rs.mu.Lock()
	n := len(rs.attempts)
	rs.mu.Unlock()
	return envErrorf("round %d (--kill-at %s) did not settle within %s (--round-timeout): %d attempts ran, the last stopped; raise --round-timeout, or lower --max-attempts or --timeout",
		index, rs.kp, rs.h.cfg.RoundTimeout, n)
}

// armable reports whether the next attempt of delivery is armed with the
// round's kill: until the kill landed, and in a round of two deliveries in
// turn (resend, respell) only the first delivery's.
func (rs *roundState) armable(delivery int) bool {
	return rs.kp.kills() && !rs.killLanded() && (rs.resend == nil || delivery == 1)
}

// takeKill reports whether the round's kill may land on a. In a round of
// copies at once with a kill (concurrent:N+KILL) every copy is armed, and
// the first to reach the kill point takes it: which copy gets there first
// is the race, and the others run on.
func (rs *roundState) takeKill(a *attemptRun) bool {
	if !rs.kp.oneMessage() {
		return true
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.killTaker != nil && rs.killTaker != a {
		return false
	}
	rs.killTaker = a
	return true
}

// kill lands the round's kill on a, unless another copy took it. When a
// stands for a server answering every copy (shared), the server's death
// kills the other copies in flight too, and their attempts say so.
func (rs *roundState) kill(a *attemptRun, shared bool) bool {
	if !rs.takeKill(a) {
		return false
	}
	if shared {
		// Marked before the server dies: a copy whose request fails at
		// once settles right after, and must record why.
		rs.mu.Lock()
		others := make([]*attemptRun, 0, len(rs.inflight))
		for o := range rs.inflight {
			if o != a {
				others = append(others, o)
			}
		}
		rs.mu.Unlock()
		for _, o := range others {
			o.mu.Lock()
			if o.killFn != nil && o.killedAt == "" { // has the server; one still starting it gets a new one
				o.killedAt = rs.kp.Landing()
			}
			o.mu.Unlock()
		}
	}
	return a.fire(rs.kp.Landing())
}

// settledByAnother reports whether another copy of the message was
// acknowledged in a round whose copies are one message
// (concurrent:N+KILL): the transport then holds nothing to deliver again.
func (rs *roundState) settledByAnother(delivery int) bool {
	if !rs.kp.oneMessage() {
		return false
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, a := range rs.attempts {
		if a.rec.Delivery != delivery && a.acked.Load() {
			return true
		}
	}
	return false
}

// holding counts one hold of a delivery by the harness (a provider delay);
// the returned func ends it.
func (rs *roundState) holding() func() { return rs.holds.enter() }

// killLanded reports whether an attempt of the round was killed at the
// round's kill point.
func (rs *roundState) killLanded() bool {
	rs.mu.Lock()
	attempts := append([]*attemptRun(nil), rs.attempts...)
	rs.mu.Unlock()
	for _, a := range attempts {
		if a.landed() == rs.kp.Landing() {
			return true
		}
	}
	return false
}

func (rs *roundState) begin(a *attemptRun) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	a.rec.StartMS = time.Since(rs.start).Milliseconds()
	rs.inflight[a] = true
	rs.latest = a
}

func (rs *roundState) end(a *attemptRun, started time.Time) {
	rs.mu.Lock()
	delete(rs.inflight, a)
	rs.mu.Unlock()
	if rs.rv != nil {
		rs.rv.ended(a.rec.Delivery)
	}
	a.rec.DurationMS = time.Since(started).Milliseconds()
}

// execAttempt runs the handler once with the message on stdin.
func (rs *roundState) execAttempt(ctx context.Context, a *attemptRun) {
	started := time.Now()
	rs.begin(a)
	defer rs.end(a, started)
	stdin, err := os.Open(a.msg.file)
	if err != nil {
		a.rec.Outcome, a.rec.Error = OutcomeError, err.Error()
		return
	}
	p, err := startGroup(rs.h.cfg.Handler, rs.h.env, stdin)
	stdin.Close()
	if err != nil {
		a.rec.Outcome, a.rec.Error = OutcomeError, err.Error()
		return
	}
	a.attach(p)
	timeout, delay, stop := rs.attemptTimers(a)
	defer stop()
	for done := false; !done; {
		select {
		case <-p.exited:
			<-p.done
			done = true
		case <-delay:
			rs.kill(a, false)
			delay = nil
		case <-timeout:
			a.fire("timeout")
		case <-ctx.Done():
			a.fire("interrupted")
			<-p.done
			done = true
		}
	}
	code := p.exitCode()
	a.rec.Signal = p.signal()
	if p.state != nil && a.rec.Signal == "" {
		a.rec.ExitCode = &code
	}
	a.rec.Stdout, a.rec.StdoutBytes = p.stdout.String(), p.stdout.Total()
	a.rec.Stderr, a.rec.StderrBytes = p.stderr.String(), p.stderr.Total()
	rs.settle(a, code == 0 && a.rec.Signal == "")
}

// settle sets the attempt's outcome once it is over.
func (rs *roundState) settle(a *attemptRun, ok bool) {
	a.mu.Lock()
	a.rec.KilledAt = a.killedAt
	a.rec.FaultAt = a.faultAt
	a.rec.Writes = a.writes
	a.mu.Unlock()
	switch {
	case a.rec.KilledAt == "timeout":
		a.rec.Outcome = OutcomeTimeout
	case a.rec.KilledAt != "":
		a.rec.Outcome = OutcomeKilled
	case ok:
		a.rec.Outcome = OutcomeAcked
	case a.rec.Outcome == "":
		a.rec.Outcome = OutcomeFailed
	}
	a.acked.Store(a.rec.Acked())
}

func (rs *roundState) copyServerOutput(a *attemptRun, p *groupProcess) {
	a.rec.Stdout, a.rec.StdoutBytes = p.stdout.String(), p.stdout.Total()
	a.rec.Stderr, a.rec.StderrBytes = p.stderr.String(), p.stderr.Total()
	select {
	case <-p.done:
		code := p.exitCode()
		if a.rec.Signal = p.signal(); a.rec.Signal == "" {
			a.rec.ExitCode = &code
		}
	default:
	}
}

// result freezes the round into its report.
func (rs *roundState) result(index int) Round {
	reqs := rs.h.prov.snapshot()
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := Round{
		Index:          index,
		KillPoint:      rs.kp.String(),
		DurationMS:     time.Since(rs.start).Milliseconds(),
		Writes:         rs.writes,
		CommitsMS:      slices.Clone(rs.commits),
		EffectRequests: reqs,
	}
	for _, a := range rs.attempts {
		a.mu.Lock()
		a.rec.Writes = a.writes
		a.mu.Unlock()
		r.Attempts = append(r.Attempts, a.rec)
		if (a.rec.KilledAt == rs.kp.Landing() || a.rec.FaultAt == rs.kp.Landing()) && a.armed {
			r.KillReached = true
		}
	}
	sort.SliceStable(r.Attempts, func(i, j int) bool {
		ai, aj := r.Attempts[i], r.Attempts[j]
		if ai.StartMS != aj.StartMS {
			return ai.StartMS < aj.StartMS
		}
		return ai.Delivery < aj.Delivery
	})
	if r.EffectRequests == nil {
		r.EffectRequests = []EffectRequest{}
	}
	r.Effects = tally(reqs)
	return r
}

func (rs *roundState) envErr(err error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.envError == nil {
		rs.envError = err
	}
}

func (rs *roundState) String() string { return fmt.Sprintf("round %s", rs.kp) }

// attach makes p the attempt's process. A kill requested while it was
// starting (its kill point was reached meanwhile) takes effect now.
func (a *attemptRun) attach(p *groupProcess) {
	a.mu.Lock()
	a.killFn, a.group = p.kill, p.pgid
	pending := a.killedAt != ""
	a.mu.Unlock()
	if pending {
		p.kill()
	}
}

// attemptTimers arms an attempt's timeout and, when the round kills at a
// time and this attempt is the armed one, the kill's delay (nil
// otherwise); stop releases both.
func (rs *roundState) attemptTimers(a *attemptRun) (timeout, delay <-chan time.Time, stop func()) {
	t := time.NewTimer(rs.h.cfg.Timeout)
	if !a.armed || rs.kp.Kind != KillTime {
		return t.C, nil, func() { t.Stop() }
	}
	d := time.NewTimer(rs.kp.Delay)
	return t.C, d.C, func() { t.Stop(); d.Stop() }
}
