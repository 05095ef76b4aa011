// Package rawllm calls models without an SDK.
package rawllm

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
	"github.com/tmc/langchaingo/llms"
)

// L01 (reported): langchaingo's answer as the key.
func ChargeLangchain(ctx context.Context, m llms.Model, text string) error {
	out, err := llms.GenerateFromSinglePrompt(ctx, m, "extract the order reference: "+text)
	if err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("ref-" + out) // want "idempotency key"
	_, err = paymentintent.New(params)
	return err
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
}

// L02 (reported): the chat completions REST API called over net/http.
func ChargeRawOpenAI(ctx context.Context, text string) error {
	body, _ := json.Marshal(map[string]any{"model": "gpt-4o-mini", "messages": []map[string]string{{"role": "user", "content": text}}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.openai.com/v1/chat/completions", bytes.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var cr chatResponse
	if err := json.NewDecoder(resp.Body).Decode(&cr); err != nil {
		return err
	}
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("ref-" + cr.Choices[0].Message.Content) // want "idempotency key"
	_, err = paymentintent.New(params)
	return err
}

// L03 (silent): the provider's charge id keys the capture that follows.
func ChargeThenCapture(ctx context.Context, orderID string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.psp.example/v1/charges", nil)
	req.Header.Set("Idempotency-Key", "charge-"+orderID)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var ch struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&ch); err != nil {
		return err
	}
	capture, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.psp.example/v1/charges/"+ch.ID+"/capture", nil)
	capture.Header.Set("Idempotency-Key", "capture-"+ch.ID)
	_, err = http.DefaultClient.Do(capture)
	return err
}

// L04 (silent): the model's REST answer is only the reply text.
func Reply(ctx context.Context, orderID, text string) (string, error) {
	resp, err := http.Post("https://api.anthropic.com/v1/messages", "application/json", bytes.NewReader([]byte(text)))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("order-" + orderID)
	if _, err := paymentintent.New(params); err != nil {
		return "", err
	}
	return out.Content[0].Text, nil
}

// L05 (reported): SQS's receive count, the queue's retry counter.
func ChargeReceiveCount(ctx context.Context, orderID string, attrs map[string]string) error {
	params := &stripe.PaymentIntentParams{}
	// Silent since issue 18: a map entry's name is not provenance; read from
	// the SQS envelope (types.Message.Attributes) it would be.
	params.SetIdempotencyKey(orderID + "#" + attrs["ApproximateReceiveCount"])
	_, err := paymentintent.New(params)
	return err
}
