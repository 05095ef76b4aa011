// want package:"analyzed"
// Package transport covers transport identity and attempt counters.
package transport

import (
	"context"
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/jackc/pgx/v5"
	amqp "github.com/rabbitmq/amqp091-go"
	stripe "github.com/stripe/stripe-go/v82"
)

type WhatsAppMessage struct {
	ID      string `json:"wamid"`
	From    string `json:"from"`
	Payload string `json:"payload"`
}

type Job struct {
	OrderID    string
	RetryCount int
}

func whatsapp(m WhatsAppMessage, params *stripe.PaymentIntentParams) {
	params.IdempotencyKey = stripe.String("pix:" + m.ID) // want `built from field ID \(transport message id, changes when the message is re-sent\)`
}

func sqsMessage(m types.Message, req *http.Request) {
	req.Header.Set("Idempotency-Key", aws.ToString(m.MessageId)) // want `built from field MessageId`
}

func sqsReceipt(m types.Message, req *http.Request) {
	req.Header.Set("Idempotency-Key", *m.ReceiptHandle) // want `built from field ReceiptHandle`
}

func amqpTag(d amqp.Delivery, req *http.Request) {
	req.Header.Set("Idempotency-Key", fmt.Sprintf("tag-%d", d.DeliveryTag)) // want `built from field DeliveryTag`
}

func retryCounter(j Job, req *http.Request) {
	// Silent since issue 18: a field named RetryCount of a job handed in
	// says nothing about who counts; decoded from the message, it is as
	// stable as the message.
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", j.OrderID, j.RetryCount))
}

func requestIDHeader(in *http.Request, out *http.Request) {
	out.Header.Set("Idempotency-Key", in.Header.Get("X-Request-Id")) // want `built from Get\("X-Request-Id"\)`
}

func mapKeyMessageID(payload map[string]string, out *http.Request) {
	out.Header.Set("Idempotency-Key", payload["message_id"]) // want `built from map key "message_id"`
}

// A retry loop's counter: each try that fails is sent again under the
// next number.
func loopAttempt(ctx context.Context, orderID string) error {
	for attempt := 0; attempt < 3; attempt++ {
		out, _ := http.NewRequestWithContext(ctx, "POST", "https://pay.example/charges", nil)
		out.Header.Set("Idempotency-Key", fmt.Sprintf("%s/%d", orderID, attempt)) // want `built from variable attempt`
		resp, err := http.DefaultClient.Do(out)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return context.DeadlineExceeded
}

// Silent: a loop that sends one request per page, whatever happens, counts
// the same pages on every attempt; its counter is no draw.
func loopPages(ctx context.Context, orderID string) {
	for page := 0; page < 3; page++ {
		out, _ := http.NewRequestWithContext(ctx, "POST", "https://pay.example/exports", nil)
		out.Header.Set("Idempotency-Key", fmt.Sprintf("%s/%d", orderID, page))
		if resp, err := http.DefaultClient.Do(out); err == nil {
			resp.Body.Close()
		}
	}
}

// The message id is written to an inbound-deduplication table, not used
// as a key: silent.
func inboundDedup(ctx context.Context, conn *pgx.Conn, m WhatsAppMessage, params *stripe.PaymentIntentParams) error {
	tag, err := conn.Exec(ctx, `insert into inbound_messages (wamid) values ($1) on conflict do nothing`, m.ID)
	if err != nil {
		return err
	}
	_ = tag
	params.IdempotencyKey = stripe.String("pix:" + m.From + ":" + m.Payload)
	return nil
}

func inboundDedupNamed(ctx context.Context, conn *pgx.Conn, m WhatsAppMessage) error {
	dedupKey := m.ID
	_, err := conn.Exec(ctx, `insert into inbound_messages (wamid) values ($1) on conflict do nothing`, dedupKey)
	return err
}

type store interface {
	AlreadyProcessed(ctx context.Context, key string) bool
}

// Inbound deduplication by message id through a store: silent.
func inboundDedupStore(ctx context.Context, s store, m WhatsAppMessage) bool {
	dedupKey := "wa:" + m.ID
	return s.AlreadyProcessed(ctx, dedupKey)
}

// An idempotency key for the provider built from the message id: reported.
func providerKeyFromMessageID(ctx context.Context, charge func(context.Context, string) error, m WhatsAppMessage) error {
	idempotencyKey := "wa:" + m.ID // want `built from field ID`
	return charge(ctx, idempotencyKey)
}
