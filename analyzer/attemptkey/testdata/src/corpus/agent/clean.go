package agent

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
	"go.opentelemetry.io/otel/trace"

	"corpus/store"
)

func stableKey(o Order) string {
	mac := hmac.New(sha256.New, []byte(os.Getenv("IDEMPOTENCY_SECRET")))
	b, _ := json.Marshal(struct {
		V  int    `json:"v"`
		C  string `json:"customer_id"`
		O  string `json:"order_id"`
		Am int64  `json:"amount"`
	}{1, o.CustomerID, o.OrderID, o.Amount})
	mac.Write(b)
	return hex.EncodeToString(mac.Sum(nil))
}

// B01: a fresh uuid offered to the store, the stored key used.
func ChargeEnsured(ctx context.Context, s *store.Store, o Order) error {
	key, err := s.EnsureKey(ctx, o.OrderID, uuid.NewString())
	if err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.SetIdempotencyKey(key)
	_, err = paymentintent.New(params)
	return err
}

// B02: the key read with database/sql rows in a helper.
func ChargeStored(ctx context.Context, s *store.Store, o Order) error {
	key, err := s.KeyFor(ctx, o.OrderID)
	if err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.IdempotencyKey = stripe.String(key)
	_, err = paymentintent.New(params)
	return err
}

// B03: an inbound dedup table keyed by the wamid.
func AcceptInbound(ctx context.Context, conn *pgx.Conn, in Inbound) (bool, error) {
	tag, err := conn.Exec(ctx, `insert into inbound(wamid, sender, received_at) values ($1, $2, $3) on conflict do nothing`, in.WamID, in.From, time.Now())
	if err != nil {
		return false, err
	}
	_ = tag
	return true, nil
}

// B04: the clock only in a guard.
func ChargeUnlessExpired(o Order, expiresAt time.Time) error {
	if time.Now().After(expiresAt) {
		return nil
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.SetIdempotencyKey(stableKey(o))
	_, err := paymentintent.New(params)
	return err
}

// B05: the body's order id, beside the wamid.
func ChargeInboundOrder(in Inbound) error {
	slog.Info("inbound", "wamid", in.WamID)
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("order:" + in.OrderID)
	_, err := paymentintent.New(params)
	return err
}

// B06: the model decides the amount; the key comes from the order alone.
func ChargeModelAmount(ctx context.Context, c *goopenai.Client, o Order) error {
	resp, err := c.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4o"})
	if err != nil {
		return err
	}
	var ex struct {
		Amount int64 `json:"amount"`
	}
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &ex); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(ex.Amount)}
	params.SetIdempotencyKey(stableKey(o))
	_, err = paymentintent.New(params)
	return err
}

// B07: the trace id goes to the logs.
func (h *Handler) ChargeLogged(w http.ResponseWriter, r *http.Request) {
	tid := trace.SpanFromContext(r.Context()).SpanContext().TraceID().String()
	slog.Info("charge", "trace_id", tid)
	req := h.newRequest(r)
	req.Header.Set("Idempotency-Key", r.URL.Query().Get("order_id"))
	req.Header.Set("Traceparent", "00-"+tid+"-01")
	h.http.Do(req)
}

// B08: a JSON body whose key entry is stable and whose created_at is not.
func (h *Handler) ChargeJSONBody(w http.ResponseWriter, r *http.Request) {
	var o Order
	json.NewDecoder(r.Body).Decode(&o)
	body := map[string]any{
		"idempotency_key": stableKey(o),
		"created_at":      time.Now().UTC(),
		"amount":          o.Amount,
	}
	b, _ := json.Marshal(body)
	_ = b
}

// B09: a struct whose dedup key is stable and whose timestamp is not.
type outbox struct {
	DedupKey  string
	CreatedAt time.Time
	RequestID string
}

func NewOutbox(o Order) outbox {
	return outbox{DedupKey: "ob:" + o.OrderID, CreatedAt: store.Stamp(), RequestID: uuid.NewString()}
}

// B10: the incoming key parsed, checked and forwarded.
func (h *Handler) Forward(w http.ResponseWriter, r *http.Request) {
	in, err := uuid.Parse(r.Header.Get("Idempotency-Key"))
	if err != nil {
		http.Error(w, "bad idempotency key", http.StatusBadRequest)
		return
	}
	req := h.newRequest(r)
	req.Header.Set("Idempotency-Key", in.String())
	h.http.Do(req)
}

// B11: a fresh request id per attempt; the key fixed before the loop.
func (h *Handler) ChargeRetrying(w http.ResponseWriter, r *http.Request) {
	var o Order
	json.NewDecoder(r.Body).Decode(&o)
	key := stableKey(o)
	for attempt := 1; attempt <= 3; attempt++ {
		req := h.newRequest(r)
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("X-Request-Id", uuid.NewString())
		resp, err := h.http.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
}

// B12: an exported helper whose key comes from its caller.
func ChargeWithKey(ctx context.Context, amount int64, idempotencyKey string) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(idempotencyKey)
	_, err := paymentintent.New(params)
	return err
}

func ChargeOrder(ctx context.Context, o Order) error {
	return ChargeWithKey(ctx, o.Amount, stableKey(o))
}
