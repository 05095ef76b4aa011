// want package:"analyzed"
// Package sinks has one positive per key sink kind.
package sinks

import (
	"context"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/uuid"
	"github.com/openai/openai-go/option"
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

func headerSet(req *http.Request) {
	req.Header.Set("Idempotency-Key", uuid.NewString()) // want `built from uuid\.NewString`
}

func headerAdd(h http.Header) {
	h.Add("idempotency-token", uuid.NewString()) // want `built from uuid\.NewString`
}

func headerIndex(req *http.Request) {
	req.Header["Idempotency-Key"] = []string{uuid.NewString()} // want `built from uuid\.NewString`
}

func requestOption() option.RequestOption {
	return option.WithHeader("Idempotency-Key", uuid.NewString()) // want `built from uuid\.NewString`
}

func stripeField(amount int64) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.IdempotencyKey = stripe.String(uuid.NewString()) // want `built from uuid\.NewString`
	_, err := paymentintent.New(params)
	return err
}

func stripeSetter(amount int64) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(uuid.NewString()) // want `built from uuid\.NewString`
	_, err := paymentintent.New(params)
	return err
}

func awsDedup(ctx context.Context, c *sqs.Client, body string) {
	_, _ = c.SendMessage(ctx, &sqs.SendMessageInput{
		MessageBody:            aws.String(body),
		MessageDeduplicationId: aws.String(uuid.NewString()), // want `built from uuid\.NewString`
	})
}

type ChargeRequest struct {
	Amount         int64
	IdempotencyKey string
}

func namedField(amount int64) ChargeRequest {
	return ChargeRequest{Amount: amount, IdempotencyKey: uuid.NewString()} // want `built from uuid\.NewString`
}

type Payload struct {
	Key string `json:"idempotency_key"`
}

func jsonTag() Payload {
	return Payload{Key: uuid.NewString()} // want `built from uuid\.NewString`
}

func namedVariable(send func(string)) {
	idemKey := uuid.NewString() // want `built from uuid\.NewString`
	send(idemKey)
}

func portugueseVariable(send func(string)) {
	chave_idempotencia := uuid.NewString() // want `built from uuid\.NewString`
	send(chave_idempotencia)
}

func mapKey() map[string]any {
	return map[string]any{"amount": 10, "idempotency_key": uuid.NewString()} // want `built from uuid\.NewString`
}

func charge(ctx context.Context, idempotencyKey string, amount int64) {}

func namedParameter(ctx context.Context) {
	charge(ctx, uuid.NewString(), 10) // want `built from uuid\.NewString`
}

func dedupKey(orderID string) string {
	// Silent since issue 18: a function's name does not make its result
	// a key; where the result goes decides.
	return orderID + uuid.NewString()
}

func keyFunctionResult(orderID string, nonce string) string {
	return idempotencyKeyFor(orderID, nonce)
}

func idempotencyKeyFor(orderID, nonce string) string { return orderID + nonce }

func keyFunctionCaller(orderID string) string {
	return idempotencyKeyFor(orderID, uuid.NewString()) // silent since issue 18: returned, never sent
}

// tokenOptions holds what makes keys (the AWS SDK's options): a provider
// is no key, whatever its name; the token it would draw is the SDK's.
type tokenOptions struct {
	IdempotencyTokenProvider interface{ GetIdempotencyToken() (string, error) }
	IdempotencyKey           string
}

type uuidTokens struct{ seed string }

func (u uuidTokens) GetIdempotencyToken() (string, error) { return u.seed, nil } // want GetIdempotencyToken:"summary"

func providerField(o *tokenOptions) {
	o.IdempotencyTokenProvider = uuidTokens{seed: uuid.NewString()}
}

func keyField(o *tokenOptions) {
	o.IdempotencyKey = uuid.NewString() // want `built from uuid\.NewString`
}

// The response's headers answer this request's caller: a key echoed there
// (a server-drawn key for a client that sent none) is sent on to no one.
func responseHeader(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Idempotency-Key", uuid.NewString())
	w.Header()["Idempotency-Key"] = []string{uuid.NewString()}
}

// The request's headers are sent on: there it is a key.
func requestHeaderBeside(w http.ResponseWriter, r *http.Request) {
	out, _ := http.NewRequest("POST", "https://api.example/charges", nil)
	out.Header.Set("Idempotency-Key", uuid.NewString()) // want `built from uuid\.NewString`
	w.Header().Set("Idempotency-Key", out.Header.Get("Idempotency-Key"))
}
