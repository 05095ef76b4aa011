package restarttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// inFlightHoldLimit bounds how long the in-flight probe holds its first
// request at the provider while the same key is sent again: five clean
// deliveries, at least 1.5 s, at most half the timeout. It grows with the
// clean delivery so that, on a slow machine, a request the server lets
// through still arrives while the first is held (a fixed limit let it
// arrive after, and a missing guard passed).
func inFlightHoldLimit(cleanMS int64, timeout time.Duration) time.Duration {
	return min(max(5*time.Duration(cleanMS)*time.Millisecond, 1500*time.Millisecond), timeout/2)
}

// inFlightHold holds the round's first effect request at the fake provider
// while the same key is sent again, so "the first is still running" is a
// fact, not a hope. It wraps the round's own provider hooks.
type inFlightHold struct {
	inner providerHooks
	held  chan struct{} // closed once the first request is held
	free  chan struct{} // closed once it is let go

	mu       sync.Mutex
	heldSeq  int
	released bool
	limit    time.Duration
	expired  bool        // let go by limit, not by an answer
	during   []int       // seqs of effect requests that arrived meanwhile
	answers  map[int]int // delivery → status of its first answer meanwhile
	others   int         // deliveries sending the key again
}

func newInFlightHold(others int, limit time.Duration) *inFlightHold {
	return &inFlightHold{held: make(chan struct{}), free: make(chan struct{}), answers: map[int]int{}, others: others, limit: limit}
}

func (h *inFlightHold) arrived(r *EffectRequest, remoteAddr string) bool {
	h.mu.Lock()
	switch {
	case h.heldSeq == 0 && !h.released:
		h.heldSeq = r.Seq
		close(h.held)
		h.mu.Unlock()
		select {
		case <-h.free:
		case <-time.After(h.limit):
			h.mu.Lock()
			h.expired = !h.released
			h.mu.Unlock()
			h.release()
		}
	case !h.released:
		// The same key reached the provider a second time while the
		// first request was still running: let both go, it is proven.
		h.during = append(h.during, r.Seq)
		h.mu.Unlock()
		h.release()
	default:
		h.mu.Unlock()
	}
	return h.inner.arrived(r, remoteAddr)
}

func (h *inFlightHold) executed(r *EffectRequest) bool { return h.inner.executed(r) }
func (h *inFlightHold) responded(r *EffectRequest)     { h.inner.responded(r) }

// answered records a delivery's answer while the first request is held;
// once every other delivery has one, the first goes on.
func (h *inFlightHold) answered(delivery int, a answer) {
	h.mu.Lock()
	if h.released || h.heldSeq == 0 {
		h.mu.Unlock()
		return
	}
	if _, seen := h.answers[delivery]; !seen {
		h.answers[delivery] = a.status
	}
	all := len(h.answers) >= h.others
	h.mu.Unlock()
	if all {
		h.release()
	}
}

func (h *inFlightHold) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.released {
		h.released = true
		close(h.free)
	}
}

func (h *inFlightHold) wasHeld() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.heldSeq != 0
}

// probeInFlight is the in-flight probe of a concurrent round, sent after
// the round is frozen: a fresh key's request is held at the provider and
// the same key sent again by `others` more requests while it is held. It
// checks the 409, which the race of the round's deliveries (released
// together, before the server read any) cannot: there the second request
// may well arrive first.
func (t *clientKeyTransport) probeInFlight(ctx context.Context, others int) (Probe, *inFlightHold) {
	key := newClientKey()
	//idemcheck:ignore IDEM001 the harness plays a new client: the in-flight probe needs a key no round has sent
	p := Probe{Name: ProbeInFlight, Client: min(len(t.clients), 1), IdempotencyKey: key, EffectRequests: []EffectRequest{}}
	hold := newInFlightHold(others, inFlightHoldLimit(t.h.cleanMS, t.h.cfg.Timeout))
	hold.inner = noHooks{}
	t.h.prov.setHooks(hold)
	defer t.h.prov.setHooks(nil)
	defer sweepMarked(t.h.marker)
	defer t.srv.stop()
	if _, err := t.srv.ensure(ctx, t.h.cfg.Timeout); err != nil {
		p.Error = err.Error()
		return p, hold
	}
	from := t.h.prov.requestCount()
	first := make(chan struct{})
	go func() {
		defer close(first)
		t.send(ctx, apiRequest{key: key, body: t.h.cfg.Message})
	}()
	// Without an effect request to hold, the others go at once: a race,
	// not a proof, and the check says so.
	select {
	case <-hold.held:
	case <-first:
	case <-ctx.Done():
	}
	for d := 2; d <= others+1; d++ {
		ans := t.send(ctx, apiRequest{key: key, body: t.h.cfg.Message})
		hold.answered(d, ans)
		if d == 2 {
			p.Status, p.Response = ans.status, string(ans.body)
			if ans.err != nil {
				p.Error = ans.err.Error()
			}
		}
	}
	hold.release()
	<-first
	p.EffectRequests = t.h.prov.takeFrom(from)
	return p, hold
}

// noHooks is a provider that decides nothing: requests outside a round.
type noHooks struct{}

func (noHooks) arrived(*EffectRequest, string) bool { return false }
func (noHooks) executed(*EffectRequest) bool        { return false }
func (noHooks) responded(*EffectRequest)            {}

// probeRound sends the contract's probes once the round's deliveries are
// over: a replay in every round; in the clean round also the same key with
// another body and (with --require-key) no key at all.
func (t *clientKeyTransport) probeRound(ctx context.Context, rs *roundState, cr *clientKeyRound) []Probe {
	var probes []Probe
	stored, ok := firstCompleted(rs)
	if !ok {
		return nil
	}
	probes = append(probes, t.probe(ctx, rs, Probe{Name: ProbeReplay}, apiRequest{key: cr.key, body: rs.h.cfg.Message}))
	if rs.kp.Kind != KillNone {
		return probes
	}
	if stored.HTTPStatus/100 == 2 {
		if changed, what, ok := changeOneField(rs.h.cfg.Message); ok {
			probes = append(probes, t.probe(ctx, rs, Probe{Name: ProbeMismatch, Changed: what}, apiRequest{key: cr.key, body: changed}))
		}
	}
	if rs.h.cfg.Delivery.ClientKey.RequireKey {
		probes = append(probes, t.probe(ctx, rs, Probe{Name: ProbeNoKey}, apiRequest{noKey: true, body: rs.h.cfg.Message}))
	}
	return probes
}

// probe sends one request outside the round's attempts: what it causes at
// the provider and in the database (the proxy counts commits as they
// happen) is the probe's, and is kept out of the round's tally.
func (t *clientKeyTransport) probe(ctx context.Context, rs *roundState, p Probe, req apiRequest) Probe {
	p.Client = min(len(t.clients), req.client+1)
	if !req.noKey {
		p.IdempotencyKey = req.key
	}
	if _, err := t.srv.ensure(ctx, rs.h.cfg.Timeout); err != nil {
		p.Error = err.Error()
		p.EffectRequests = []EffectRequest{}
		return p
	}
	rs.mu.Lock()
	latest, writes := rs.latest, rs.writes
	rs.latest = nil
	rs.mu.Unlock()
	from := t.h.prov.requestCount()

	ans := t.send(ctx, req)

	p.EffectRequests = t.h.prov.takeFrom(from)
	rs.mu.Lock()
	p.Writes = rs.writes - writes
	rs.writes, rs.latest = writes, latest
	rs.mu.Unlock()
	p.Status, p.Response = ans.status, string(ans.body)
	if ans.err != nil {
		p.Error = ans.err.Error()
	}
	return p
}

// probeOtherClient sends the round's request, same key and body, as the
// second client. It runs after the round is frozen, on a restarted server:
// the second client's operation is a real effect of its own and must not
// count as the first client's.
func (t *clientKeyTransport) probeOtherClient(ctx context.Context, key string) Probe {
	p := Probe{Name: ProbeOtherClient, Client: 2, IdempotencyKey: key, EffectRequests: []EffectRequest{}}
	defer sweepMarked(t.h.marker)
	defer t.srv.stop()
	if _, err := t.srv.ensure(ctx, t.h.cfg.Timeout); err != nil {
		p.Error = err.Error()
		return p
	}
	from := t.h.prov.requestCount()
	ans, tries := t.sendAsAClient(ctx, apiRequest{client: 1, key: key, body: t.h.cfg.Message})
	p.EffectRequests = t.h.prov.takeFrom(from)
	p.Status, p.Response, p.Tries = ans.status, string(ans.body), tries
	if ans.err != nil {
		p.Error = ans.err.Error()
	}
	return p
}

// sendAsAClient sends req as a client would: again, with the run's backoff
// and Retry-After, while the answer is "still running", "slow down", a
// server error or no answer, up to --max-attempts tries. It returns the
// last answer and how many tries it took.
func (t *clientKeyTransport) sendAsAClient(ctx context.Context, req apiRequest) (answer, int) {
	backoff := t.h.cfg.Backoff
	var ans answer
	for try := 1; ; try++ {
		ans = t.send(ctx, req)
		if ans.completed() || try >= t.h.cfg.MaxAttempts || ctx.Err() != nil {
			return ans, try
		}
		wait := max(backoff, min(ans.retryAfter, maxRetryAfter))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ans, try
		}
		backoff = t.h.cfg.nextBackoff(backoff)
	}
}

// firstCompleted is the first attempt whose answer completed the request.
func firstCompleted(rs *roundState) (Attempt, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var best *Attempt
	for _, a := range rs.attempts {
		rec := a.rec
		if rec.HTTPStatus == 0 || !(answer{status: rec.HTTPStatus}).completed() {
			continue
		}
		if best == nil || rec.StartMS < best.StartMS {
			best = &rec
		}
	}
	if best == nil {
		return Attempt{}, false
	}
	return *best, true
}

// amountNames are the body fields a changed request most plausibly differs
// in; the provider's amount detection uses the same names.
var amountNames = []string{"amount", "amount_cents", "valor", "value"}

// changeOneField returns the JSON body with one field changed, and says
// which: an amount when there is one, else the first number, else the first
// string, in key order.
func changeOneField(body []byte) ([]byte, string, bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, "", false
	}
	var leaves []leaf
	collectLeaves(v, "", &leaves)
	pick := -1
	for _, pass := range []func(leaf) bool{
		func(l leaf) bool { return slices.Contains(amountNames, l.name) && l.numeric() },
		func(l leaf) bool { return l.numeric() },
		func(l leaf) bool { _, ok := l.parent[l.name].(string); return ok },
	} {
		for i, l := range leaves {
			if pass(l) {
				pick = i
				break
			}
		}
		if pick >= 0 {
			break
		}
	}
	if pick < 0 {
		return nil, "", false
	}
	l := leaves[pick]
	old := fmt.Sprint(l.parent[l.name])
	l.parent[l.name] = changedValue(l.parent[l.name])
	out, err := json.Marshal(v)
	if err != nil {
		return nil, "", false
	}
	return out, fmt.Sprintf("%s: %s → %v", l.path, old, l.parent[l.name]), true
}

// leaf is a scalar field of a JSON object.
type leaf struct {
	parent map[string]any
	name   string
	path   string
}

func (l leaf) numeric() bool {
	switch x := l.parent[l.name].(type) {
	case json.Number:
		return true
	case string:
		_, err := strconv.ParseFloat(x, 64)
		return err == nil
	}
	return false
}

func collectLeaves(v any, path string, out *[]leaf) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		p := k
		if path != "" {
			p = path + "." + k
		}
		switch m[k].(type) {
		case map[string]any:
			collectLeaves(m[k], p, out)
		case json.Number, string:
			*out = append(*out, leaf{parent: m, name: k, path: p})
		}
	}
}

// changedValue adds one to a number (keeping a decimal string's places)
// and marks a string as changed.
func changedValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return json.Number(strconv.FormatInt(n+1, 10))
		}
		f, _ := x.Float64()
		return json.Number(strconv.FormatFloat(f+1, 'f', -1, 64))
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil {
			places := 0
			if i := strings.IndexByte(x, '.'); i >= 0 {
				places = len(x) - i - 1
			}
			return strconv.FormatFloat(f+1, 'f', places, 64)
		}
		return x + "-changed"
	}
	return v
}

// requestCount is how many effect requests the round has seen so far.
func (p *provider) requestCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.requests)
}

// takeFrom removes the effect requests from index n on and returns copies:
// they belong to a probe, not to the round's attempts.
func (p *provider) takeFrom(n int) []EffectRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := []EffectRequest{}
	if n < len(p.requests) {
		for _, r := range p.requests[n:] {
			out = append(out, *r)
		}
		p.requests = p.requests[:n]
	}
	return out
}

// setHooks replaces the provider's hooks and keeps its memory of keys.
func (p *provider) setHooks(h providerHooks) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hooks = h
}
