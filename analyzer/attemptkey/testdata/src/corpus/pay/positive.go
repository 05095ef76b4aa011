package pay

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand"
	randv2 "math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	gofrs "github.com/gofrs/uuid"
	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
	openaigo "github.com/openai/openai-go"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/rs/xid"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/segmentio/ksuid"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
	"go.opentelemetry.io/otel/trace"

	"corpus/keys"
)

func post(ctx context.Context, body []byte) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodPost, providerURL, bytes.NewReader(body))
}

// P01: uuid.NewString straight into the header.
func ChargeWithUUID(ctx context.Context, o Order) error {
	body, _ := json.Marshal(o)
	req, err := post(ctx, body)
	if err != nil {
		return err
	}
	key := uuid.NewString()
	req.Header.Set("Idempotency-Key", key) // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P02: a timestamp key.
func ChargeWithTimestamp(ctx context.Context, o Order) error {
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	key := o.OrderID + "-" + strconv.FormatInt(time.Now().UnixNano(), 10)
	req.Header.Set("X-Idempotency-Key", key) // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P03: the AMQP message id as the stripe key.
func ConsumeAMQP(d amqp.Delivery) error {
	var o Order
	if err := json.Unmarshal(d.Body, &o); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount), Currency: stripe.String(o.Currency)}
	params.SetIdempotencyKey(d.MessageId) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// P04: the SQS message id in a stripe params literal.
func ConsumeSQS(m sqstypes.Message) error {
	var o Order
	if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &o); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{
		Params: stripe.Params{IdempotencyKey: stripe.String("pi-" + aws.ToString(m.MessageId))}, // want "idempotency key"
		Amount: stripe.Int64(o.Amount),
	}
	_, err := paymentintent.New(params)
	return err
}

// P05: openai-go output parsed from JSON into the key.
func ChargeFromOpenAI(ctx context.Context, c openaigo.Client, text string) error {
	resp, err := c.Chat.Completions.New(ctx, openaigo.ChatCompletionNewParams{Model: "gpt-4o", Messages: []string{openaigo.UserMessage(text)}})
	if err != nil {
		return err
	}
	var ex Extraction
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &ex); err != nil {
		return err
	}
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", fmt.Sprintf("order:%s:%d", ex.OrderRef, ex.Amount)) // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P06: anthropic output hashed into a dedup key for SQS FIFO.
func EnqueueFromClaude(ctx context.Context, c anthropic.Client, q *sqs.Client, queueURL string) error {
	msg, err := c.Messages.New(ctx, anthropic.MessageNewParams{Model: "claude", MaxTokens: 512})
	if err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(msg.Content[0].Text)))
	dedup := hex.EncodeToString(sum[:])
	_, err = q.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl:               aws.String(queueURL),
		MessageDeduplicationId: aws.String(dedup), // want "idempotency key"
	})
	return err
}

// P07: crypto/rand bytes, hex-encoded, into a variable named as a key.
func ChargeWithRandomBytes(ctx context.Context, o Order) error {
	buf := make([]byte, 16)
	if _, err := rand.Read(buf); err != nil {
		return err
	}
	idempotencyKey := hex.EncodeToString(buf) // want "idempotency key"
	return sendToken(ctx, idempotencyKey)
}

func sendToken(ctx context.Context, token string) error {
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Add("X-Client-Token", token)
	_, err = client.Do(req)
	return err
}

// P08: io.ReadFull(rand.Reader, buf), base64, header index assignment.
func ChargeWithReadFull(ctx context.Context) error {
	buf := make([]byte, 24)
	if _, err := io.ReadFull(rand.Reader, buf); err != nil {
		return err
	}
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header["Idempotency-Key"] = []string{base64.RawURLEncoding.EncodeToString(buf)} // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P09: math/rand in a FIFO dedup id.
func EnqueueSettlement(ctx context.Context, q *sqs.Client, o Order) error {
	_, err := q.SendMessage(ctx, &sqs.SendMessageInput{
		MessageBody:            aws.String(o.OrderID),
		MessageDeduplicationId: aws.String(o.OrderID + "-" + strconv.FormatInt(mrand.Int63(), 36)), // want "idempotency key"
	})
	return err
}

// P10: an ulid passed through a cross-package derivation helper.
func ChargeWithDerivedULID(ctx context.Context, o Order) error {
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	k := keys.Derive(o.OrderID, ulid.Make().String())
	req.Header.Set("Idempotency-Key", k) // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P11: a cross-package function that returns a fresh key.
func ChargeWithHelperKey(ctx context.Context, o Order) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.IdempotencyKey = stripe.String(keys.NewAttemptKey()) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// P12: an xid passed to a cross-package client whose parameter is the key.
func ChargeViaProvider(ctx context.Context, p *keys.Provider, o Order) error {
	body, _ := json.Marshal(o)
	return p.Charge(ctx, xid.New().String(), body) // want "idempotency key"
}

// P13: a random key drawn once per call and reused by the retry closure,
// in a call the queue consumer below makes: a redelivery draws another.
func ConsumeWithRetry(d amqp.Delivery) error {
	var o Order
	if err := json.Unmarshal(d.Body, &o); err != nil {
		return err
	}
	return ChargeWithRetry(context.Background(), o)
}

func ChargeWithRetry(ctx context.Context, o Order) error {
	key := uuid.New().String()
	return retry(3, func() error {
		req, err := post(ctx, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key) // want "idempotency key"
		_, err = client.Do(req)
		return err
	})
}

func retry(n int, f func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * 200 * time.Millisecond)
	}
	return err
}

// P14: the worker's attempt counter in the key.
func HandleJob(ctx context.Context, j Job) error {
	params := &stripe.PaymentIntentParams{}
	// Silent since issue 18: Job.Attempt is a field of the job as it was
	// handed in; a redelivery carries the same value.
	params.SetIdempotencyKey(fmt.Sprintf("%s:%d", j.OrderID, j.Attempt))
	_, err := paymentintent.New(params)
	return err
}

// P15: WhatsApp webhook decoded into a map; message_id as the key.
func HandleWebhookMap(w http.ResponseWriter, r *http.Request) {
	var payload map[string]any
	if err := json.NewDecoder(r.Body).Decode(&payload); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	mid, _ := payload["message_id"].(string)
	req, _ := post(r.Context(), nil)
	req.Header.Set("Idempotency-Key", "wa-"+mid) // want "idempotency key"
	client.Do(req)
}

// P16: a field tagged json:"message_id".
func HandleWhatsApp(ctx context.Context, m WAMessage) error {
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey(m.Mid) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// P17: time.Now stored in the order, then used in the key.
func ChargeStamped(ctx context.Context, o Order) error {
	o.CreatedAt = time.Now()
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", o.OrderID+"@"+o.CreatedAt.Format(time.RFC3339)) // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P18: stripe's own random key generator.
func ChargeStripeRandom(o Order) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(o.Amount)}
	params.IdempotencyKey = stripe.String(stripe.NewIdempotencyKey()) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// P19: gofrs uuid as an AWS client token.
func LaunchWorker(ctx context.Context, c *ec2.Client) error {
	token := gofrs.Must(gofrs.NewV4()).String()
	_, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String("ami-1"), ClientToken: aws.String(token)}) // want "idempotency key"
	return err
}

// P20: a key function that returns a ksuid.
func idempotencyKeyFor(o Order) string {
	return o.OrderID + "-" + ksuid.New().String() // silent since issue 18: a name is no sink, and the result is never sent
}

// P21: json.Marshal of a payload holding a uuid, hashed into the key.
func ChargeHashedPayload(ctx context.Context, o Order) error {
	payload := struct {
		OrderID string `json:"order_id"`
		Nonce   string `json:"nonce"`
	}{OrderID: o.OrderID, Nonce: uuid.NewString()}
	b, _ := json.Marshal(payload)
	sum := sha256.Sum256(b)
	req, err := post(ctx, b)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:])) // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P22: math/rand/v2 in a JSON body's idempotency_key map entry.
func ChargeWithBodyKey(ctx context.Context, o Order) error {
	body := map[string]string{
		"order_id":        o.OrderID,
		"idempotency_key": strings.Join([]string{o.OrderID, strconv.Itoa(randv2.IntN(1 << 30))}, "."), // want "idempotency key"
	}
	b, _ := json.Marshal(body)
	req, err := post(ctx, b)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

// P23: an out-parameter filled with a fresh uuid.
func newNonce(dst *string) {
	*dst = uuid.NewString()
}

func ChargeOutParam(ctx context.Context) error {
	var k string
	newNonce(&k)
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", k) // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P24: the AMQP delivery tag.
func ConsumeTagged(d amqp.Delivery) error {
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("dlv-" + strconv.FormatUint(d.DeliveryTag, 10)) // want "idempotency key"
	_, err := paymentintent.New(params)
	return err
}

// P25: the SQS receipt handle mistaken for an id.
func ConsumeReceipt(ctx context.Context, db *dynamodb.Client, m sqstypes.Message) error {
	_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: m.ReceiptHandle}) // want "idempotency key"
	return err
}

// P26: the trace id.
func ChargeTraced(ctx context.Context, o Order) error {
	tid := trace.SpanFromContext(ctx).SpanContext().TraceID().String()
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", o.OrderID+":"+tid) // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P27: an HMAC written with a uuid.
func ChargeHMACNonce(ctx context.Context, o Order) error {
	mac := hmac.New(sha256.New, []byte(os.Getenv("IDEM_SECRET")))
	mac.Write([]byte(o.OrderID))
	mac.Write([]byte(uuid.NewString()))
	req, err := post(ctx, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", hex.EncodeToString(mac.Sum(nil))) // want "idempotency key"
	_, err = client.Do(req)
	return err
}

// P28: a daily key, computed from time.Now.
func ChargeDaily(ctx context.Context, c *acm.Client, o Order) error {
	day := time.Now().UTC().Format("20060102")
	_, err := c.RequestCertificate(ctx, &acm.RequestCertificateInput{DomainName: aws.String(o.CustomerID), IdempotencyToken: aws.String(o.CustomerID + day)}) // want "idempotency key"
	return err
}

// P29: go-openai output as a caller reference, through a helper in this package.
func refFromModel(ctx context.Context, c *goopenai.Client, text string) (string, error) {
	resp, err := c.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: text}}})
	if err != nil {
		return "", err
	}
	return strings.ToLower(resp.Choices[0].Message.Content), nil
}

func RegisterZone(ctx context.Context, r53 *route53.Client, c *goopenai.Client, text string) error {
	ref, err := refFromModel(ctx, c, text)
	if err != nil {
		return err
	}
	_, err = r53.CreateHostedZone(ctx, &route53.CreateHostedZoneInput{Name: aws.String("x.example"), CallerReference: aws.String(ref)}) // want "idempotency key"
	return err
}

// P30: the retry count from the job, in a struct field named DedupKey.
type outboxEvent struct {
	DedupKey string
	Body     []byte
}

func BuildOutbox(j Job) outboxEvent {
	return outboxEvent{DedupKey: j.ID + "/" + strconv.Itoa(j.RetryCount), Body: j.Payload} // silent since issue 18: RetryCount is a name, not a counter drawn here
}
