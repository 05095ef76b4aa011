package restarttest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// A concurrent:N round makes its deliveries really race: each delivery's
// first write (held at the database proxy) and its first effect request
// (held at the fake provider) wait until all N deliveries have reached the
// same point, or a bounded wait passes, and are then released together. A
// check-then-act window, however short, is then open in every delivery at
// once.

// Rendezvous points.
const (
	PointFirstWrite   = "first write"
	PointFirstRequest = "first effect request"
)

// Rendezvous reports one rendezvous of a concurrent round.
type Rendezvous struct {
	Point      string `json:"point"`      // "first write" or "first effect request"
	Deliveries int    `json:"deliveries"` // N
	Arrived    int    `json:"arrived"`    // deliveries that reached the point while it held
	Reached    bool   `json:"reached"`    // all N arrived and were released together
	WaitedMS   int64  `json:"waited_ms"`  // from the first arrival to the release
	// Note says why the deliveries were released before all arrived.
	Note string `json:"note,omitempty"`
	// HeldMS is when the first delivery arrived, since the round started,
	// for the HTML report's timeline; not part of the JSON output.
	HeldMS int64 `json:"-"`
}

// barrier holds the deliveries arriving at one point until all have come.
type barrier struct {
	point   string
	parties int
	wait    time.Duration
	// started is when the round's deliveries started; limit caps the wait.
	// The others get twice as long as the first needed to arrive: on a
	// loaded machine (a handler that takes seconds to start) a fixed wait
	// released the first before the second had even begun.
	started time.Time
	limit   time.Duration

	mu       sync.Mutex
	arrived  map[int]bool
	first    time.Time
	release  chan struct{}
	released bool
	reached  bool
	waited   time.Duration
	note     string
	timer    *time.Timer
	holds    *holdCount // the round's holds; a waiting delivery is one
}

func newBarrier(point string, parties int, wait time.Duration, holds *holdCount) *barrier {
	return &barrier{point: point, parties: parties, wait: wait, arrived: map[int]bool{}, release: make(chan struct{}), holds: holds}
}

// rendezvousWait bounds how long the first arrival waits for the others:
// a few times a clean delivery, at least a second, at most five.
func rendezvousWait(cleanMS int64, timeout time.Duration) time.Duration {
	w := min(max(3*time.Duration(cleanMS)*time.Millisecond, time.Second), 5*time.Second)
	return min(w, timeout/2)
}

// join holds delivery d at the point until the barrier opens. A delivery
// that already passed, or a barrier already open, does not wait.
func (b *barrier) join(ctx context.Context, d int) {
	b.mu.Lock()
	if b.released || b.arrived[d] {
		b.mu.Unlock()
		return
	}
	if len(b.arrived) == 0 {
		b.first = time.Now()
		wait := b.wait
		if !b.started.IsZero() {
			wait = max(wait, min(2*b.first.Sub(b.started), b.limit))
		}
		wait = wait.Round(time.Millisecond)
		b.timer = time.AfterFunc(wait, func() {
			b.open(false, fmt.Sprintf("released after the bounded wait of %s", wait))
		})
	}
	b.arrived[d] = true
	if len(b.arrived) == b.parties {
		b.openLocked(true, "")
		b.mu.Unlock()
		return
	}
	release := b.release
	b.mu.Unlock()
	defer b.holds.enter()()
	select {
	case <-release:
	case <-ctx.Done():
	}
}

// gaveUp opens the barrier when delivery d's attempt ended without reaching
// the point: the others would wait for nothing.
func (b *barrier) gaveUp(d int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.released && !b.arrived[d] {
		b.openLocked(false, fmt.Sprintf("delivery %d ended its attempt before its %s", d, b.point))
	}
}

func (b *barrier) open(reached bool, note string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.openLocked(reached, note)
}

func (b *barrier) openLocked(reached bool, note string) {
	if b.released {
		return
	}
	b.released, b.reached, b.note = true, reached, note
	if !b.first.IsZero() {
		b.waited = time.Since(b.first)
	}
	if b.timer != nil {
		b.timer.Stop()
	}
	close(b.release)
}

// report is the barrier's part of the round report; ok is false when no
// delivery ever reached the point.
func (b *barrier) report(roundStart time.Time) (Rendezvous, bool) {
	b.open(false, "")
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.arrived) == 0 {
		return Rendezvous{}, false
	}
	note := b.note
	if !b.reached && note == "" {
		note = "the round ended first"
	}
	return Rendezvous{Point: b.point, Deliveries: b.parties, Arrived: len(b.arrived), Reached: b.reached,
		WaitedMS: b.waited.Milliseconds(), Note: note, HeldMS: b.first.Sub(roundStart).Milliseconds()}, true
}

// rendezvous are the barriers of a concurrent round.
type rendezvous struct {
	writes, requests *barrier
	// byDelivery is false when deliveries cannot be told apart (one server
	// process answers them all): each arrival then counts as a delivery.
	byDelivery bool
	anonymous  atomic.Int64
}

func newRendezvous(parties int, wait time.Duration, byDelivery bool, holds *holdCount) *rendezvous {
	return &rendezvous{
		writes:     newBarrier(PointFirstWrite, parties, wait, holds),
		requests:   newBarrier(PointFirstRequest, parties, wait, holds),
		byDelivery: byDelivery,
	}
}

// scaleWithArrival lets each barrier wait up to twice the time its first
// arrival took since start, at most limit.
func (rv *rendezvous) scaleWithArrival(start time.Time, limit time.Duration) {
	for _, b := range []*barrier{rv.writes, rv.requests} {
		b.started, b.limit = start, limit
	}
}

// party names the arrival of attempt a (nil when unattributed).
func (rv *rendezvous) party(a *attemptRun) int {
	if rv.byDelivery && a != nil {
		return a.rec.Delivery
	}
	return -int(rv.anonymous.Add(1))
}

// ended lets both barriers know that delivery d's attempt is over. When
// one server answers every delivery, an attempt whose request was answered
// is not waiting at either point (a waiting one holds its request open):
// the others would wait for nothing, so the barriers open too.
func (rv *rendezvous) ended(d int) {
	rv.writes.gaveUp(d)
	rv.requests.gaveUp(d)
}

// openAll lets everything go: the round's deliveries are over, and what
// comes now (a probe) is not one of them.
func (rv *rendezvous) openAll() {
	rv.writes.open(false, "")
	rv.requests.open(false, "")
}

func (rv *rendezvous) report(roundStart time.Time) []Rendezvous {
	var out []Rendezvous
	for _, b := range []*barrier{rv.writes, rv.requests} {
		if r, ok := b.report(roundStart); ok {
			out = append(out, r)
		}
	}
	return out
}
