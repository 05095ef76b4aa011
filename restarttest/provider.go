package restarttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Results of an effect request at the fake provider.
const (
	ResultExecuted = "executed"  // the effect happened (first request for a key, or no key)
	ResultReplayed = "replayed"  // same key, same body: stored response, no effect
	ResultConflict = "conflict"  // same key, different body: 422
	ResultInFlight = "in-flight" // same key while the first is still running: 409
	ResultDropped  = "dropped"   // killed at `request`: never reached the provider
	ResultFault    = "fault"     // --provider-fault 500-once: 500, no effect
)

// EffectRequest is one POST the handler sent to the fake provider.
type EffectRequest struct {
	Seq      int `json:"seq"`
	Attempt  int `json:"attempt"`  // attempt number within its delivery; 0 when unknown
	Delivery int `json:"delivery"` // 1..N; 0 when concurrent deliveries make it ambiguous
	// AttemptRequest is K when this is the K-th effect request of its
	// attempt (what request:K, response:K and after-response:K kill
	// around); 0 when the attempt is unknown.
	AttemptRequest int    `json:"attempt_request"`
	Method         string `json:"method"`
	Path           string `json:"path"`
	Endpoint       string `json:"endpoint"` // "POST /v1/charges": the unit checks group by
	IdempotencyKey string `json:"idempotency_key"`
	Body           string `json:"body"`
	Amount         string `json:"amount,omitempty"` // the body's amount, when it has one
	Result         string `json:"result"`
	Status         int    `json:"status,omitempty"` // HTTP status sent (0 when none reached the handler)
	EffectID       string `json:"effect_id,omitempty"`
	// ResponseWithheld is set when the handler was killed at `response`:
	// the effect happened but its answer never arrived.
	ResponseWithheld bool  `json:"response_withheld,omitempty"`
	AtMS             int64 `json:"at_ms"` // since the round started
}

// ProviderFault injects provider misbehaviour: "500-once" or "delay:DURATION".
type ProviderFault struct {
	FailOnce bool
	Delay    time.Duration
}

// ParseProviderFault parses a --provider-fault value.
func ParseProviderFault(s string) (ProviderFault, error) {
	var f ProviderFault
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		switch {
		case part == "":
		case part == "500-once":
			f.FailOnce = true
		case strings.HasPrefix(part, "delay:") || strings.HasPrefix(part, "delay="):
			d, err := time.ParseDuration(part[len("delay:"):])
			if err != nil || d < 0 {
				return f, fmt.Errorf("bad provider fault %q: want delay:DURATION, e.g. delay:200ms", part)
			}
			f.Delay = d
		default:
			return f, fmt.Errorf("unknown provider fault %q: want 500-once or delay:DURATION", part)
		}
	}
	return f, nil
}

// providerHooks let the round decide about kills around each request.
type providerHooks interface {
	// arrived attributes the request (sent from remoteAddr) and may drop
	// it (kill at `request`).
	arrived(r *EffectRequest, remoteAddr string) (drop bool)
	// executed may withhold the response (kill at `response`).
	executed(r *EffectRequest) (withhold bool)
	// responded is called after the response was flushed (`after-response`).
	responded(r *EffectRequest)
}

type storedResponse struct {
	fingerprint string
	inFlight    bool
	status      int
	body        []byte
}

// provider is the fake payment provider with Stripe / IETF Idempotency-Key
// semantics. Its state is per round.
type provider struct {
	srv   *http.Server
	ln    net.Listener
	fault ProviderFault

	mu       sync.Mutex
	hooks    providerHooks
	start    time.Time
	requests []*EffectRequest
	keys     map[string]*storedResponse // endpoint + key
	effects  int
	faulted  bool
}

func startProvider(fault ProviderFault) (*provider, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fake provider: %w", err)
	}
	p := &provider{ln: ln, fault: fault, keys: map[string]*storedResponse{}}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

func (p *provider) URL() string { return "http://" + p.ln.Addr().String() }

func (p *provider) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

func (p *provider) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = p.srv.Shutdown(ctx)
	_ = p.srv.Close()
}

// reset starts a new round: no keys, no effects.
func (p *provider) reset(hooks providerHooks) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hooks = hooks
	p.start = time.Now()
	p.requests = nil
	p.keys = map[string]*storedResponse{}
	p.effects = 0
	p.faulted = false
}

// forget drops every key the provider remembers, as a real provider's
// retention does (Stripe keeps keys 24 h); the round's requests and
// effects stay.
func (p *provider) forget() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys = map[string]*storedResponse{}
}

// snapshot returns copies of the round's requests.
func (p *provider) snapshot() []EffectRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]EffectRequest, len(p.requests))
	for i, r := range p.requests {
		out[i] = *r
	}
	return out
}

func (p *provider) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusMethodNotAllowed, `{"error":{"type":"invalid_request_error","message":"the fake provider takes POST"}}`)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	req := &EffectRequest{
		Method:         r.Method,
		Path:           r.URL.Path,
		Endpoint:       r.Method + " " + r.URL.Path,
		IdempotencyKey: r.Header.Get("Idempotency-Key"),
		Body:           string(body),
		Amount:         amountOf(body),
	}
	p.mu.Lock()
	hooks := p.hooks
	req.Seq = len(p.requests) + 1
	req.AtMS = time.Since(p.start).Milliseconds()
	p.requests = append(p.requests, req)
	p.mu.Unlock()

	if hooks != nil && hooks.arrived(req, r.RemoteAddr) {
		p.setResult(req, ResultDropped, 0, "")
		hijackClose(w)
		return
	}

	p.mu.Lock()
	if p.fault.FailOnce && !p.faulted {
		p.faulted = true
		req.Result, req.Status = ResultFault, http.StatusInternalServerError
		p.mu.Unlock()
		writeJSON(w, req.Status, `{"error":{"type":"api_error","message":"injected fault: try again"}}`)
		return
	}
	slot := req.Endpoint + "\x00" + req.IdempotencyKey
	fp := fingerprint(body)
	var stored *storedResponse
	if req.IdempotencyKey != "" {
		if s, ok := p.keys[slot]; ok {
			status, resBody, result := s.status, s.body, ResultReplayed
			switch {
			case s.fingerprint != fp:
				status, result = http.StatusUnprocessableEntity, ResultConflict
				resBody = []byte(`{"error":{"type":"idempotency_error","message":"Keys for idempotent requests can only be used with the same parameters they were first used with."}}`)
			case s.inFlight:
				status, result = http.StatusConflict, ResultInFlight
				resBody = []byte(`{"error":{"type":"idempotency_error","message":"A request with this Idempotency-Key is still being processed."}}`)
			}
			req.Result, req.Status = result, status
			p.mu.Unlock()
			p.respond(w, req, hooks, status, resBody, result == ResultReplayed)
			return
		}
		stored = &storedResponse{fingerprint: fp, inFlight: true}
		p.keys[slot] = stored
	}
	p.mu.Unlock()

	if p.fault.Delay > 0 {
		end := func() {}
		if hl, ok := hooks.(interface{ holding() func() }); ok {
			end = hl.holding() // the harness's hold, not the handler's doing
		}
		select {
		case <-time.After(p.fault.Delay):
		case <-r.Context().Done():
		}
		end()
	}

	p.mu.Lock()
	p.effects++
	id := fmt.Sprintf("ch_%d", p.effects)
	resBody := []byte(`{"id":"` + id + `","status":"succeeded"}`)
	req.Result, req.Status, req.EffectID = ResultExecuted, http.StatusOK, id
	if stored != nil {
		stored.inFlight, stored.status, stored.body = false, http.StatusOK, resBody
	}
	p.mu.Unlock()

	if hooks != nil && hooks.executed(req) {
		p.mu.Lock()
		req.ResponseWithheld, req.Status = true, 0
		p.mu.Unlock()
		hijackClose(w)
		return
	}
	p.respond(w, req, hooks, http.StatusOK, resBody, false)
}

func (p *provider) respond(w http.ResponseWriter, req *EffectRequest, hooks providerHooks, status int, body []byte, replayed bool) {
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeJSON(w, status, string(body))
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	if hooks != nil {
		hooks.responded(req)
	}
}

// attribute records which delivery, attempt and request of that attempt
// sent req. Under p.mu: req is in p.requests, which snapshot copies while
// a broker round watches for activity.
func (p *provider) attribute(req *EffectRequest, delivery, attempt, request int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	req.Delivery, req.Attempt, req.AttemptRequest = delivery, attempt, request
}

func (p *provider) setResult(req *EffectRequest, result string, status int, id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	req.Result, req.Status, req.EffectID = result, status, id
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// hijackClose drops the connection without an answer, as a crash does.
func hijackClose(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// fingerprint identifies a request body; JSON bodies compare by value, so
// key order and spacing do not count as a different payload.
func fingerprint(body []byte) string {
	return string(canonicalBody(body))
}

func canonicalBody(body []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err == nil && !dec.More() {
		if out, err := json.Marshal(v); err == nil {
			return out
		}
	}
	if vals, err := url.ParseQuery(string(body)); err == nil && len(vals) > 0 && !bytes.ContainsAny(body, "{}") {
		keys := make([]string, 0, len(vals))
		for k := range vals {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%s&", k, strings.Join(vals[k], ","))
		}
		return []byte(b.String())
	}
	return body
}

// amountOf finds an amount in a JSON or form body: "amount", "amount_cents",
// "valor" or "value", at the top level or one object down.
func amountOf(body []byte) string {
	names := []string{"amount", "amount_cents", "valor", "value"}
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err == nil {
		if a := amountIn(v, names); a != "" {
			return a
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if m, ok := v[k].(map[string]any); ok {
				if a := amountIn(m, names); a != "" {
					return a
				}
			}
		}
		return ""
	}
	if vals, err := url.ParseQuery(string(body)); err == nil {
		for _, n := range names {
			if a := vals.Get(n); a != "" {
				return a
			}
		}
	}
	return ""
}

func amountIn(m map[string]any, names []string) string {
	for _, n := range names {
		switch a := m[n].(type) {
		case json.Number:
			return a.String()
		case string:
			if a != "" {
				return a
			}
		}
	}
	return ""
}
