package restarttest

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// A concurrent:N round over HTTP starts its N deliveries at the same
// instant: each request is written to its own connection except for its
// last byte, and the last bytes go out together once all N are written. No
// server can have read (and so answered) any of them before the others
// were sent, so a check-then-insert without a unique constraint races every
// time. Brokers get the same by publishing every copy before any consumer
// starts.

// startGate holds the first attempt of each delivery until all have sent
// all but the last byte of their request, or a bounded wait passes.
type startGate struct {
	parties int
	wait    time.Duration

	mu    sync.Mutex
	ready int
	open  chan struct{}
	done  bool
}

// startGateWait bounds how long the first delivery ready waits for the
// others: they only have to dial and write a request.
func startGateWait(timeout time.Duration) time.Duration {
	return min(5*time.Second, timeout/2)
}

func newStartGate(parties int, wait time.Duration) *startGate {
	return &startGate{parties: parties, wait: wait, open: make(chan struct{})}
}

// arrive waits for the others, or the bounded wait.
func (g *startGate) arrive(ctx context.Context) {
	g.mu.Lock()
	g.ready++
	if g.ready >= g.parties {
		g.openLocked()
	}
	open := g.open
	g.mu.Unlock()
	select {
	case <-open:
	case <-time.After(g.wait):
		g.abandon()
	case <-ctx.Done():
	}
}

// abandon opens the gate: a delivery failed before it could send.
func (g *startGate) abandon() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.openLocked()
}

func (g *startGate) openLocked() {
	if !g.done {
		g.done = true
		close(g.open)
	}
}

// client is an HTTP client whose one request waits at the gate with its
// last byte unsent. No keep-alive: the connection is the request's.
func (g *startGate) client(ctx context.Context) *http.Client {
	dialer := &net.Dialer{}
	return &http.Client{Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(dctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dialer.DialContext(dctx, network, addr)
			if err != nil {
				g.abandon()
				return nil, err
			}
			return &gatedConn{Conn: c, gate: g, ctx: ctx}, nil
		},
	}}
}

// gatedConn holds back the last byte of its first write until the gate
// opens.
type gatedConn struct {
	net.Conn
	gate *startGate
	ctx  context.Context
	used bool
}

func (c *gatedConn) Write(p []byte) (int, error) {
	if c.used || len(p) < 2 {
		return c.Conn.Write(p)
	}
	c.used = true
	n, err := c.Conn.Write(p[:len(p)-1])
	if err != nil {
		c.gate.abandon()
		return n, err
	}
	c.gate.arrive(c.ctx)
	m, err := c.Conn.Write(p[len(p)-1:])
	return n + m, err
}

// holdCount counts the deliveries the harness itself is holding (at a
// rendezvous, in a provider delay). A delivery that was told to retry
// later waits until nobody is held before it retries: its retry budget is
// for the handler's behaviour, not for the harness's holds.
type holdCount struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n == 0
}

func newHoldCount() *holdCount {
	idle := make(chan struct{})
	close(idle)
	return &holdCount{idle: idle}
}

// enter counts one hold; the returned func ends it.
func (h *holdCount) enter() func() {
	h.mu.Lock()
	if h.n == 0 {
		h.idle = make(chan struct{})
	}
	h.n++
	h.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			if h.n--; h.n == 0 {
				close(h.idle)
			}
		})
	}
}

// waitIdle returns once nobody is held, or at the limit.
func (h *holdCount) waitIdle(ctx context.Context, limit time.Duration) {
	h.mu.Lock()
	idle := h.idle
	h.mu.Unlock()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	case <-ctx.Done():
	}
}
