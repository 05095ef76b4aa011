// want package:"analyzed"
// Package misc covers less common shapes of sources and sinks.
package misc

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	mrand "math/rand"
	"net/http"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"
	stripe "github.com/stripe/stripe-go/v82"
	"go.opentelemetry.io/otel/trace"
)

const idempotencyHeader = "Idempotency-Key"

func constHeaderName(req *http.Request) {
	req.Header.Set(idempotencyHeader, uuid.NewString()) // want `built from uuid\.NewString`
}

func headerLiteral(req *http.Request) {
	req.Header = http.Header{"Idempotency-Key": {uuid.NewString()}} // want `built from uuid\.NewString`
}

func nestedParams(cents int64) *stripe.PaymentIntentParams {
	return &stripe.PaymentIntentParams{
		Params: stripe.Params{IdempotencyKey: stripe.String(uuid.NewString())}, // want `built from uuid\.NewString`
		Amount: stripe.Int64(cents),
	}
}

type RunInstancesInput struct {
	ClientToken *string
	ImageId     *string
}

// Silent: outside the AWS SDKs, whose ClientToken is a sink by the key
// model's table, a ClientToken is no key by its name (Vault's is the
// client's authentication token).
func awsLikeToken() *RunInstancesInput {
	return &RunInstancesInput{ClientToken: aws.String(uuid.NewString())}
}

type DedupInput struct {
	ClientRequestToken *string
}

func dedupToken() *DedupInput {
	return &DedupInput{ClientRequestToken: aws.String(uuid.NewString())} // want `built from uuid\.NewString`
}

type restyRequest struct{ headers map[string]string }

func (r *restyRequest) SetHeader(k, v string) *restyRequest { r.headers[k] = v; return r } // want SetHeader:"summary\\(results=2 outs=0 sinks=0\\)"

func resty(r *restyRequest) {
	r.SetHeader("Idempotency-Key", uuid.NewString()) // want `built from uuid\.NewString`
}

func chiRequestID(ctx context.Context, req *http.Request) {
	req.Header.Set("Idempotency-Key", "pay-"+middleware.GetReqID(ctx)) // want `built from middleware\.GetReqID \(request identity, new per request\)`
}

func otelTraceID(ctx context.Context, req *http.Request) {
	tid := trace.SpanFromContext(ctx).SpanContext().TraceID()
	req.Header.Set("Idempotency-Key", tid.String()) // want `built from trace\.SpanContext\.TraceID`
}

// A process-wide random secret changes on every restart.
var secret = randomSecret()

func randomSecret() []byte {
	b := make([]byte, 32)
	rand.Read(b)
	return b
}

func perProcessSecret(req *http.Request, orderID string) {
	h := sha256.New()
	h.Write(secret)
	h.Write([]byte(orderID))
	req.Header.Set("Idempotency-Key", hex.EncodeToString(h.Sum(nil))) // want `built from rand\.Read`
}

type Client struct {
	nonce string
}

func NewClient() *Client { return &Client{nonce: uuid.NewString()} } // want NewClient:"summary\\(results=1 outs=0 sinks=0\\)"

func (c *Client) key(orderID string) string { return orderID + "/" + c.nonce }

func (c *Client) label(orderID string) string { return "order " + orderID }

func methodOnConstructed(req *http.Request, orderID string) {
	c := NewClient()
	req.Header.Set("X-Label", c.label(orderID))
	req.Header.Set("Idempotency-Key", c.key(orderID)) // want `built from uuid\.NewString`
}

func first[T any](xs []T) T { return xs[0] }

func generic(req *http.Request) {
	req.Header.Set("Idempotency-Key", first([]string{uuid.NewString()})) // want `built from uuid\.NewString`
}

// One mistake, one finding: the variable and the parameter it is passed to
// are the same key.
func chargeWith(ctx context.Context, idempotencyKey string) {}

func oneFinding(ctx context.Context) {
	idemKey := uuid.NewString()
	chargeWith(ctx, idemKey) // want `built from uuid\.NewString`
}

// A uuid as a request id and a stable key: silent.
func requestIDAndStableKey(req *http.Request, orderID string) {
	requestID := uuid.NewString()
	req.Header.Set("X-Request-Id", requestID)
	req.Header.Set("Idempotency-Key", "order:"+orderID)
}

type Clock interface {
	Now() time.Time
}

// systemClock is the Clock the service runs with: an injected Clock is
// judged by the implementations in view, and this one reads the clock.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() } // want Now:"summary"

func injectedClock(c Clock, req *http.Request, orderID string) {
	req.Header.Set("Idempotency-Key", orderID+c.Now().Format("150405")) // want `built from time\.Now \(clock reading`
}

func seededRand(req *http.Request) {
	r := mrand.New(mrand.NewSource(42))
	req.Header.Set("Idempotency-Key", strconv.Itoa(r.Intn(1<<30))) // want `built from rand\.Rand\.Intn`
}

type Intent struct {
	TenantID  string
	OrderID   string
	Nonce     string
	CreatedAt time.Time
}

// IdempotencyKey is a method named like a key: its result is a key.
func (i Intent) IdempotencyKey() string { return i.TenantID + ":" + i.OrderID + ":" + i.Nonce } // want IdempotencyKey:"summary"

// StableKey ignores the per-attempt fields.
func (i Intent) StableKey() string { return i.TenantID + ":" + i.OrderID } // want StableKey:"summary"

func keyMethod(req *http.Request, tenant, order string) {
	i := Intent{TenantID: tenant, OrderID: order, Nonce: uuid.NewString(), CreatedAt: time.Now()}
	req.Header.Set("X-Key", i.IdempotencyKey()) // silent since issue 18: X-Key is no key header, and a method's name is no sink
}

func stableKeyMethod(req *http.Request, tenant, order string) {
	i := Intent{TenantID: tenant, OrderID: order, Nonce: uuid.NewString(), CreatedAt: time.Now()}
	req.Header.Set("Idempotency-Key", i.StableKey())
}

type providerNotification struct {
	RequestID string `json:"requestId"`
	Amount    int64  `json:"amount"`
}

// A field named RequestID holds what the body says: the provider's id of
// the notification, the same when it is delivered again.
func notificationDedup(w http.ResponseWriter, r *http.Request) {
	var n providerNotification
	if err := json.NewDecoder(r.Body).Decode(&n); err != nil {
		return
	}
	req, _ := http.NewRequest("POST", "https://api.provider.example/credit", nil)
	req.Header.Set("Idempotency-Key", "credit-"+n.RequestID)
	http.DefaultClient.Do(req)
}
