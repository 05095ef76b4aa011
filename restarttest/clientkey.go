package restarttest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clientKeyTransport is idemcheck acting as a well-behaved client of an
// HTTP API under the Idempotency-Key contract (IETF
// draft-ietf-httpapi-idempotency-key-header, Stripe): one fresh key per
// logical request, the same key on every retry of it, a kill of the server
// is a lost response retried with the same key, and 409 means "retry
// later". After the deliveries it probes the contract: a replay, the same
// key with another body, no key, the same key from another client.
type clientKeyTransport struct {
	h       *harness
	srv     *server
	header  string       // the key's header name
	clients []httpHeader // one per client; clients[0] sends the deliveries

	mu  sync.Mutex
	cur *clientKeyRound
}

type httpHeader struct{ name, value string }

// clientKeyRound is what the transport saw in one round.
type clientKeyRound struct {
	key    string
	hold   *inFlightHold // concurrent rounds: the in-flight probe's hold
	probes []Probe
}

// Probe names, part of the JSON output.
const (
	ProbeReplay      = "replay"       // the completed request sent again, same key and body
	ProbeMismatch    = "mismatch"     // the same key with one field of the body changed
	ProbeNoKey       = "no-key"       // the request without the key header
	ProbeOtherClient = "other-client" // the same key and body from the second client
	ProbeInFlight    = "in-flight"    // concurrent rounds: a fresh key sent again while its first request is held at the provider
)

// Probe is one request idemcheck sent to test the contract, and what it
// caused.
type Probe struct {
	Name           string `json:"name"`
	Client         int    `json:"client"` // 1-based index of --client-header; 0 without one
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	Changed        string `json:"changed,omitempty"` // mismatch: the field changed, "path: old → new"
	Status         int    `json:"status,omitempty"`
	Response       string `json:"response,omitempty"`
	Error          string `json:"error,omitempty"`
	// Tries is how many times a retrying probe (other-client) sent its
	// request before the answer it reports.
	Tries          int             `json:"tries,omitempty"`
	EffectRequests []EffectRequest `json:"effect_requests"` // what reached the provider meanwhile
	Writes         int             `json:"writes"`          // committed writes meanwhile
}

func (p Probe) executed() int { return p.results(ResultExecuted) }

func (p Probe) replayed() int { return p.results(ResultReplayed) }

// results counts the probe's effect requests that the provider answered
// with result.
func (p Probe) results(result string) int {
	n := 0
	for _, q := range p.EffectRequests {
		if q.Result == result {
			n++
		}
	}
	return n
}

// Check names of --client-key mode, part of the JSON output.
const (
	CheckReplayIdentical  = "replay-identical"
	CheckMismatchRejected = "mismatch-rejected"
	CheckInFlightConflict = "in-flight-conflict"
	CheckKeyRequired      = "key-required"
	CheckClientScoped     = "client-scoped"
)

// responseCap bounds the stored answer bodies.
const responseCap = 4 << 10

// maxRetryAfter bounds how long a Retry-After makes the client wait.
const maxRetryAfter = 2 * time.Second

// ParseClientHeader parses a --client-header value, "Name: Value".
func ParseClientHeader(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" || strings.ContainsAny(name, " \t") || value == "" {
		return "", "", fmt.Errorf("bad client header %q: want 'Name: Value', e.g. 'Authorization: Bearer alice'", s)
	}
	return http.CanonicalHeaderKey(name), value, nil
}

func newClientKeyTransport(h *harness) (*clientKeyTransport, error) {
	srv, err := newServer(h.cfg.Handler, h.cfg.Delivery.URL, h.env)
	if err != nil {
		return nil, err
	}
	t := &clientKeyTransport{h: h, srv: srv, header: h.cfg.Delivery.ClientKey.Header}
	if t.header == "" {
		t.header = "Idempotency-Key"
	}
	t.header = http.CanonicalHeaderKey(t.header)
	for _, raw := range h.cfg.Delivery.ClientKey.ClientHeaders {
		name, value, err := ParseClientHeader(raw)
		if err != nil {
			return nil, err
		}
		t.clients = append(t.clients, httpHeader{name, value})
	}
	return t, nil
}

func (t *clientKeyTransport) describe(rep *Report) { rep.ClientKey = t.header }

func (t *clientKeyTransport) failure() error   { return t.srv.failure() }
func (t *clientKeyTransport) oneProcess() bool { return true }

func (t *clientKeyTransport) close() error {
	t.srv.stop()
	return nil
}

// newClientKey is a fresh key in the shape clients use: a random UUID.
func newClientKey() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(errors.New("crypto/rand failed"))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// apiRequest is one request the client sends.
type apiRequest struct {
	client int // index into clients; -1 sends no client header
	key    string
	noKey  bool
	body   []byte
}

// answer is what came back.
type answer struct {
	status     int
	body       []byte
	retryAfter time.Duration
	err        error
	timedOut   bool
}

func (t *clientKeyTransport) deliver(ctx context.Context, rs *roundState) {
	cr := &clientKeyRound{key: newClientKey()}
	t.mu.Lock()
	t.cur = cr
	t.mu.Unlock()
	defer t.srv.stop()
	// N deliveries at once send the logical request at the same instant,
	// each retried until acknowledged: the constraint race. The harness
	// plays the client, with one key per round sent on every delivery.
	rs.deliverAll(ctx, func(d int) deliveryLoop {
		// Each copy is the client's own request: another one's answer
		// does not end it.
		return deliveryLoop{delivery: d, ownCopies: true, try: func(ctx context.Context, a *attemptRun) time.Duration {
			//idemcheck:ignore IDEM001 the harness plays the client: one key per round (newClientKey), resent on every attempt of that round, as a client does
			return t.attempt(ctx, rs, a, apiRequest{key: cr.key, body: rs.h.cfg.Message}).retryAfter
		}}
	})
	if rs.rv != nil {
		rs.rv.openAll()
	}
	if ctx.Err() != nil {
		return
	}
	//idemcheck:ignore IDEM001 the probes resend the round's client key on purpose: they test what the server does with a key it has seen
	cr.probes = t.probeRound(ctx, rs, cr)
}

// attempt is one try of the logical request at the server, with the
// client's key.
func (t *clientKeyTransport) attempt(ctx context.Context, rs *roundState, a *attemptRun, req apiRequest) answer {
	a.rec.IdempotencyKey = req.key
	return rs.serverAttempt(ctx, a, t.srv, func(ctx context.Context, client *http.Client) answer {
		return postJSON(ctx, client, t.srv.url, req.body, t.h.cfg.Timeout, t.headers(req)...)
	})
}

// send makes one HTTP request to the server and reads the answer.
func (t *clientKeyTransport) send(ctx context.Context, req apiRequest) answer {
	return postJSON(ctx, t.srv.client, t.srv.url, req.body, t.h.cfg.Timeout, t.headers(req)...)
}

// headers are the request's client header and its key.
func (t *clientKeyTransport) headers(req apiRequest) []httpHeader {
	var hs []httpHeader
	if req.client >= 0 && req.client < len(t.clients) {
		hs = append(hs, t.clients[req.client])
	}
	if !req.noKey {
		hs = append(hs, httpHeader{t.header, req.key})
	}
	return hs
}

// httpErrorText says what went wrong with a request without Go's wrapping
// ("Post \"http://…\": EOF").
func httpErrorText(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			err = inner
		}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "connection closed without an answer"
	}
	return err.Error()
}

// parseRetryAfter reads Retry-After as seconds or an HTTP date.
func parseRetryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(time.Until(at), 0)
	}
	return 0
}

// completed reports whether an answer is the request's outcome, the one a
// replay must repeat: anything but "still running", "slow down" and
// server errors, which a client retries.
func (a answer) completed() bool {
	return a.err == nil && a.status != http.StatusConflict && a.status != http.StatusTooManyRequests && a.status < 500
}
