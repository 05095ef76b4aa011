// want package:"analyzed"
// Package handlers is a WhatsApp payment agent, wrong and right.
package handlers

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/openai/openai-go"
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

type WAMessage struct {
	ID   string `json:"id"`
	From string `json:"from"`
	Text string `json:"text"`
}

type PixCharge struct {
	Amount int64  `json:"amount"`
	Payee  string `json:"payee"`
}

type Agent struct {
	llm  openai.Client
	conn *pgx.Conn
}

func (a *Agent) extract(ctx context.Context, m WAMessage) (PixCharge, error) {
	resp, err := a.llm.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt", Messages: []string{m.Text}})
	if err != nil {
		return PixCharge{}, err
	}
	var c PixCharge
	err = json.Unmarshal([]byte(resp.Choices[0].Message.Content), &c)
	return c, err
}

// HandleWrong keys the charge on the message id: a redelivered webhook or
// a user resending the message charges again.
func (a *Agent) HandleWrong(ctx context.Context, m WAMessage) error { // want HandleWrong:"summary\\(results=0 outs=0 sinks=1\\)"
	c, err := a.extract(ctx, m)
	if err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(c.Amount)}
	params.IdempotencyKey = stripe.String("pix-" + m.ID) // want `built from field ID \(transport message id, changes when the message is re-sent\)`
	_, err = paymentintent.New(params)
	return err
}

// HandleModelKey keys the charge on the model's output.
func (a *Agent) HandleModelKey(ctx context.Context, m WAMessage) error {
	c, err := a.extract(ctx, m)
	if err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(c.Amount)}
	params.IdempotencyKey = stripe.String(fmt.Sprintf("%s:%d", c.Payee, c.Amount)) // want `built from openai\.ChatCompletionService\.New \(model output, differs per call\);`
	_, err = paymentintent.New(params)
	return err
}

// HandleRight freezes the intent first and derives the key from the row
// read back.
func (a *Agent) HandleRight(ctx context.Context, tenant, conversation string, m WAMessage) error { // want HandleRight:"summary\\(results=0 outs=0 sinks=2 persists=\\[2 3\\]\\)"
	c, err := a.extract(ctx, m)
	if err != nil {
		return err
	}
	_, err = a.conn.Exec(ctx, `insert into payment_intents (tenant_id, conversation_id, amount, payee)
		values ($1, $2, $3, $4) on conflict (tenant_id, conversation_id) do nothing`, tenant, conversation, c.Amount, c.Payee)
	if err != nil {
		return err
	}
	var frozen PixCharge
	if err := a.conn.QueryRow(ctx, `select amount, payee from payment_intents where tenant_id = $1 and conversation_id = $2`,
		tenant, conversation).Scan(&frozen.Amount, &frozen.Payee); err != nil {
		return err
	}
	mac := hmac.New(sha256.New, []byte(os.Getenv("IDEMPOTENCY_HMAC_KEY")))
	mac.Write([]byte(tenant + "\x00" + conversation + "\x00" + strconv.FormatInt(frozen.Amount, 10) + "\x00" + frozen.Payee))
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(frozen.Amount)}
	params.IdempotencyKey = stripe.String("v1:" + hex.EncodeToString(mac.Sum(nil)))
	_, err = paymentintent.New(params)
	return err
}

// HandlePersistedButUnused persists a fresh key and then uses the fresh
// value instead of the one read back: a redelivery charges again.
func (a *Agent) HandlePersistedButUnused(ctx context.Context, orderID string, cents int64) error { // want HandlePersistedButUnused:"persists=\\[2\\]"
	idemKey := uuid.NewString()
	if _, err := a.conn.Exec(ctx, `insert into intents (order_id, idem_key) values ($1, $2) on conflict do nothing`, orderID, idemKey); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(cents)}
	params.IdempotencyKey = stripe.String(idemKey) // want `built from uuid\.NewString`
	_, err := paymentintent.New(params)
	return err
}

// HandleReturning generates a candidate key, lets the database keep the
// first one, and uses the key returned: silent.
func (a *Agent) HandleReturning(ctx context.Context, orderID string, cents int64) error { // want HandleReturning:"persists=\\[2\\]"
	var key string
	err := a.conn.QueryRow(ctx, `insert into intents (order_id, idem_key) values ($1, $2)
		on conflict (order_id) do update set order_id = excluded.order_id returning idem_key`, orderID, uuid.NewString()).Scan(&key)
	if err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(cents)}
	params.SetIdempotencyKey(key)
	_, err = paymentintent.New(params)
	return err
}
