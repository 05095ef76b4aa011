package pay

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/go-chi/chi/v5/middleware"
	gofrs "github.com/gofrs/uuid"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	openaigo "github.com/openai/openai-go"
	amqp "github.com/rabbitmq/amqp091-go"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"

	"corpus/keys"
)

// deriveKey is the team's reference derivation: HMAC over stable fields.
func deriveKey(o Order) string {
	mac := hmac.New(sha256.New, []byte(os.Getenv("IDEM_SECRET")))
	fmt.Fprintf(mac, "v1|%s|%s|%d|%s", o.CustomerID, o.OrderID, o.Amount, strings.ToUpper(o.Currency))
	return hex.EncodeToString(mac.Sum(nil))
}

// C01: key computed once from the order, reused by the retry closure.
func ChargeStableWithRetry(ctx context.Context, o Order) error {
	key := deriveKey(o)
	return retry(5, func() error {
		req, err := post(ctx, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		_, err = client.Do(req)
		return err
	})
}

// C02: a uuid persisted in the intent row and read back with Scan.
func ChargePersistedUUID(ctx context.Context, conn *pgx.Conn, o Order) error {
	_, err := conn.Exec(ctx, `insert into payment_intents(tenant_id, order_id, idem_key) values ($1, $2, $3) on conflict do nothing`,
		o.CustomerID, o.OrderID, uuid.NewString())
	if err != nil {
		return err
	}
	var key string
	if err := conn.QueryRow(ctx, `select idem_key from payment_intents where tenant_id = $1 and order_id = $2`, o.CustomerID, o.OrderID).Scan(&key); err != nil {
		return err
	}
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = client.Do(req)
	return err
}

// C03: a uuid only for the request id header.
func ChargeWithRequestID(ctx context.Context, o Order) error {
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Request-Id", uuid.NewString())
	req.Header.Set("Idempotency-Key", deriveKey(o))
	_, err = client.Do(req)
	return err
}

// C04: time.Now for created_at.
func RecordIntent(ctx context.Context, conn *pgx.Conn, o Order) error {
	_, err := conn.Exec(ctx, `insert into payment_intents(order_id, idem_key, created_at) values ($1, $2, $3) on conflict do nothing`,
		o.OrderID, deriveKey(o), time.Now().UTC())
	return err
}

// C05: message_id written to the inbound deduplication table.
func DedupInbound(ctx context.Context, conn *pgx.Conn, d amqp.Delivery) (bool, error) {
	tag, err := conn.Exec(ctx, `insert into inbound_messages(message_id, received_at) values ($1, now()) on conflict do nothing`, d.MessageId)
	if err != nil {
		return false, err
	}
	_ = tag
	return true, nil
}

// C06: the model's extraction frozen in the intent and read back.
func ChargeFrozenExtraction(ctx context.Context, c openaigo.Client, conn *pgx.Conn, waID, text string) error {
	resp, err := c.Chat.Completions.New(ctx, openaigo.ChatCompletionNewParams{Model: "gpt-4o", Messages: []string{text}})
	if err != nil {
		return err
	}
	var ex Extraction
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &ex); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `insert into intents(wa_id, order_ref, amount) values ($1, $2, $3) on conflict do nothing`, waID, ex.OrderRef, ex.Amount); err != nil {
		return err
	}
	var frozen Order
	if err := conn.QueryRow(ctx, `select order_ref, amount from intents where wa_id = $1`, waID).Scan(&frozen.OrderID, &frozen.Amount); err != nil {
		return err
	}
	frozen.CustomerID = waID
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(frozen.Amount)}
	params.SetIdempotencyKey(deriveKey(frozen))
	_, err = paymentintent.New(params)
	return err
}

// C07: a key prefix from configuration.
func ChargeConfiguredPrefix(ctx context.Context, o Order) error {
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", os.Getenv("IDEM_PREFIX")+o.OrderID)
	_, err = client.Do(req)
	return err
}

// C08: the caller's own Idempotency-Key forwarded to the provider.
func ProxyCharge(w http.ResponseWriter, r *http.Request) {
	out, err := post(r.Context(), nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out.Header.Set("Idempotency-Key", r.Header.Get("Idempotency-Key"))
	out.Header.Set("X-Request-Id", middleware.GetReqID(r.Context()))
	if _, err := client.Do(out); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}

// C09: intents collected with pgx.CollectRows.
func ChargePending(ctx context.Context, conn *pgx.Conn) error {
	rows, err := conn.Query(ctx, `select tenant_id, order_id, idem_key, amount from intents where status = 'pending'`)
	if err != nil {
		return err
	}
	intents, err := pgx.CollectRows(rows, pgx.RowToStructByName[Intent])
	if err != nil {
		return err
	}
	for _, in := range intents {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(in.Amount)}
		params.IdempotencyKey = stripe.String(in.Key)
		if _, err := paymentintent.New(params); err != nil {
			return err
		}
	}
	return nil
}

// C10: request id only in the logs.
func ChargeLogged(ctx context.Context, o Order) error {
	reqID := uuid.NewString()
	log.Printf("request_id=%s charging order %s", reqID, o.OrderID)
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.SetIdempotencyKey("order-" + o.OrderID)
	_, err := paymentintent.New(params)
	if err != nil {
		log.Printf("request_id=%s failed: %v", reqID, err)
	}
	return err
}

// C11: one per-attempt field does not taint its siblings.
func ChargeSiblingField(ctx context.Context, o Order) error {
	o.CreatedAt = time.Now()
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", "ord_"+o.OrderID)
	req.Header.Set("X-Created-At", o.CreatedAt.Format(time.RFC3339))
	_, err = client.Do(req)
	return err
}

// C12: the cross-package derivation helper called with stable fields.
func ChargeViaProviderStable(ctx context.Context, p *keys.Provider, o Order) error {
	body, _ := json.Marshal(o)
	return p.Charge(ctx, keys.Derive(o.CustomerID, o.OrderID, strconv.FormatInt(o.Amount, 10)), body)
}

// C13: metadata carries a request id; the key is stable.
func ChargeWithMetadata(o Order) error {
	params := &stripe.PaymentIntentParams{
		Params: stripe.Params{
			IdempotencyKey: stripe.String(deriveKey(o)),
			Metadata:       map[string]string{"request_id": uuid.NewString(), "order_id": o.OrderID},
		},
		Amount: stripe.Int64(o.Amount),
	}
	_, err := paymentintent.New(params)
	return err
}

// C14: FIFO dedup id from the order carried in the message body.
func ForwardSettlement(ctx context.Context, q *sqs.Client, m sqstypes.Message) error {
	var o Order
	if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &o); err != nil {
		return err
	}
	_, err := q.SendMessage(ctx, &sqs.SendMessageInput{
		MessageBody:            m.Body,
		MessageGroupId:         aws.String(o.CustomerID),
		MessageDeduplicationId: aws.String("settle-" + o.OrderID),
	})
	return err
}

// C15: Redelivered only decides whether to log.
func ConsumeLoggingRedelivery(d amqp.Delivery) error {
	if d.Redelivered {
		log.Printf("redelivered message %s tag %d", d.MessageId, d.DeliveryTag)
	}
	var o Order
	if err := json.Unmarshal(d.Body, &o); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.SetIdempotencyKey(deriveKey(o))
	_, err := paymentintent.New(params)
	return err
}

// C16: the attempt counter only drives the backoff.
func HandleJobStable(ctx context.Context, j Job) error {
	time.Sleep(time.Duration(j.Attempt) * time.Second)
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("job-" + j.OrderID)
	_, err := paymentintent.New(params)
	return err
}

// C17: time.Now for a deadline.
func ChargeWithDeadline(ctx context.Context, o Order) error {
	ctx, cancel := context.WithDeadline(ctx, time.Now().Add(5*time.Second))
	defer cancel()
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", deriveKey(o))
	start := time.Now()
	_, err = client.Do(req)
	log.Printf("provider latency %s", time.Since(start))
	return err
}

// C18: an AWS client token read back with pgx.CollectOneRow.
func LaunchFromIntent(ctx context.Context, conn *pgx.Conn, c *ec2.Client, orderID string) error {
	rows, err := conn.Query(ctx, `select idem_key from intents where order_id = $1`, orderID)
	if err != nil {
		return err
	}
	token, err := pgx.CollectOneRow(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	_, err = c.RunInstances(ctx, &ec2.RunInstancesInput{ClientToken: aws.String(token)})
	return err
}

// C19: a key function over stable fields.
func idempotencyKey(o Order) string {
	return fmt.Sprintf("pay:%s:%s:%d", o.CustomerID, o.OrderID, o.Amount)
}

func ChargeNamedKey(o Order) error {
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey(idempotencyKey(o))
	_, err := paymentintent.New(params)
	return err
}

// C20: name-based (v5/sha1) uuids are deterministic.
func ChargeNameBasedUUID(ctx context.Context, o Order) error {
	ns := uuid.NameSpaceURL
	k1 := uuid.NewSHA1(ns, []byte(o.OrderID)).String()
	k2 := gofrs.NewV5(gofrs.UUID{}, o.OrderID).String()
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", k1)
	req.Header.Set("X-Order-Ref", k2)
	_, err = client.Do(req)
	return err
}

// C21: the model writes the reply; the key comes from the order.
func ReplyAndCharge(ctx context.Context, c *goopenai.Client, o Order, question string) (string, error) {
	resp, err := c.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: question}}})
	if err != nil {
		return "", err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.SetIdempotencyKey(deriveKey(o))
	if _, err := paymentintent.New(params); err != nil {
		return "", err
	}
	return resp.Choices[0].Message.Content, nil
}

// C22: a key read with database/sql.
func ChargeFromSQL(ctx context.Context, db *sql.DB, orderID string) error {
	var key string
	var amount int64
	if err := db.QueryRowContext(ctx, `select idem_key, amount from intents where order_id = $1`, orderID).Scan(&key, &amount); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.IdempotencyKey = &key
	_, err := paymentintent.New(params)
	return err
}

// C23: a random nonce for a signed webhook header, not the key.
func SignedCharge(ctx context.Context, o Order) error {
	nonce := make([]byte, 12)
	if _, err := rand.Read(nonce); err != nil {
		return err
	}
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Nonce", hex.EncodeToString(nonce))
	req.Header.Set("X-Timestamp", strconv.FormatInt(time.Now().Unix(), 10))
	req.Header.Set("Idempotency-Key", deriveKey(o))
	_, err = client.Do(req)
	return err
}

// C24: the cross-package trace helper gets a random id; it is no key.
func TraceCharge(ctx context.Context, p *keys.Provider, o Order) error {
	return p.Trace(ctx, keys.NewTraceLabel(), []byte(o.OrderID))
}

// C25: the key read back from the intent, once per message, across the retry loop.
func ChargeIntentRetry(ctx context.Context, db *sql.DB, m WAMessage) error {
	var in Intent
	err := db.QueryRowContext(ctx, `select tenant_id, order_id, idem_key, amount from intents where wa_message = $1`, m.Mid).Scan(&in.TenantID, &in.OrderID, &in.Key, &in.Amount)
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, err := post(ctx, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", in.Key)
		req.Header.Set("X-Attempt", strconv.Itoa(attempt))
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("charge %s: provider unavailable", in.OrderID)
}
