package agent

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	mrand "math/rand"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

// A01: a key-maker closure.
func (h *Handler) ChargeClosureMaker(w http.ResponseWriter, r *http.Request) {
	mkKey := func() string { return "k_" + uuid.NewString() }
	req := h.newRequest(r)
	req.Header.Set("Idempotency-Key", mkKey()) // want "idempotency key"
	h.http.Do(req)
}

// A02: a method that stamps the key with the clock.
func (h *Handler) stampedKey(orderID string) string {
	return h.prefix + orderID + time.Now().String()
}

func (h *Handler) ChargeStampedMethod(w http.ResponseWriter, r *http.Request) {
	req := h.newRequest(r)
	req.Header.Set("Idempotency-Key", h.stampedKey(r.URL.Query().Get("order_id"))) // want "idempotency key"
	h.http.Do(req)
}

// A03: the key parked in a plain struct field first.
func (h *Handler) ChargeViaRequestStruct(w http.ResponseWriter, r *http.Request) {
	var cr chargeRequest
	cr.Amount = 100
	cr.Key = uuid.Must(uuid.NewV7()).String()
	req := h.newRequest(r)
	req.Header.Set("Idempotency-Key", cr.Key) // want "idempotency key"
	h.http.Do(req)
}

// A04: a strings.Builder.
func (h *Handler) ChargeBuilder(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("pay-")
	b.WriteString(strconv.FormatInt(time.Now().Unix(), 10))
	req := h.newRequest(r)
	req.Header.Set("Idempotency-Key", b.String()) // want "idempotency key"
	h.http.Do(req)
}

// A05: fmt.Fprintf into a bytes.Buffer.
func (h *Handler) ChargeBuffer(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	u, err := uuid.NewRandom()
	if err != nil {
		return
	}
	fmt.Fprintf(&buf, "%s/%s", r.URL.Query().Get("order_id"), u)
	req := h.newRequest(r)
	req.Header.Set("Idempotency-Key", buf.String()) // want "idempotency key"
	h.http.Do(req)
}

// A06: a per-order key cache in a map, filled per call.
func ChargeCachedKey(o Order) error {
	keysByOrder := map[string]string{}
	if _, ok := keysByOrder[o.OrderID]; !ok {
		keysByOrder[o.OrderID] = ulid.MustNew(ulid.Now(), rand.Reader).String()
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.SetIdempotencyKey(keysByOrder[o.OrderID]) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// A07: parts appended to a slice.
func ChargeSliceParts(o Order) error {
	parts := []string{o.CustomerID, o.OrderID}
	parts = append(parts, strconv.Itoa(mrand.New(mrand.NewSource(time.Now().UnixNano())).Intn(1000)))
	params := &stripe.PaymentIntentParams{}
	params.Params.IdempotencyKey = stripe.String(strings.Join(parts, ":")) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// A08: a local helper whose parameter is named as a key.
func submit(ctx context.Context, amount int64, idemKey string) error {
	slog.InfoContext(ctx, "charging", "amount", amount)
	return nil
}

func ChargeSubmit(ctx context.Context, o Order) error {
	return submit(ctx, o.Amount, uuid.NewString()) // want "idempotency key"
}

// A09: the WhatsApp wamid as the key.
func HandleInbound(ctx context.Context, in Inbound) error {
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("wa:" + in.WamID) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// A10: a streamed model answer accumulated into the key.
func ChargeFromStream(ctx context.Context, c *goopenai.Client, prompt string) error {
	stream, err := c.CreateChatCompletionStream(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4o-mini"})
	if err != nil {
		return err
	}
	var ref string
	for i := 0; i < 8; i++ {
		chunk, err := stream.Recv()
		if err != nil {
			break
		}
		ref += chunk.Choices[0].Delta.Content
	}
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("ref-" + ref) // want "idempotency key"
	_, err = paymentintent.New(params)
	return err
}

// A11: the whole order, created_at included, hashed into the key.
func ChargeHashedOrder(o Order) error {
	o.CreatedAt = time.Now()
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.SetIdempotencyKey(hex.EncodeToString(sum[:])) // want "idempotency key"
	_, err = paymentintent.New(params)
	return err
}

// A12: a key method on the order that reads the clock.
func (o Order) IdempotencyKey() string {
	// Silent since issue 18: the method's name does not make its result a
	// key, and nothing here sends it.
	return fmt.Sprintf("%s-%d", o.OrderID, time.Now().Unix()/60)
}

// A13: the key set from a goroutine.
func (h *Handler) ChargeAsync(w http.ResponseWriter, r *http.Request) {
	key := fmt.Sprint(time.Now().UnixMilli())
	req := h.newRequest(r)
	done := make(chan struct{})
	go func() {
		defer close(done)
		req.Header.Set("Idempotency-Key", key) // want "idempotency key"
		h.http.Do(req)
	}()
	<-done
}

// A14: the model output parsed by a helper through an out-parameter.
func parseExtraction(raw string, dst *Order) error {
	return json.Unmarshal([]byte(raw), dst)
}

func ChargeParsedOut(ctx context.Context, c *goopenai.Client) error {
	resp, err := c.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4o"})
	if err != nil {
		return err
	}
	var o Order
	if err := parseExtraction(resp.Choices[0].Message.Content, &o); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.SetIdempotencyKey("ord-" + o.OrderID) // want "idempotency key"
	_, err = paymentintent.New(params)
	return err
}
