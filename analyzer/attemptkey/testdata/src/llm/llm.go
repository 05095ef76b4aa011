// want package:"analyzed"
// Package llm covers model output as a source.
package llm

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/jackc/pgx/v5"
	"github.com/openai/openai-go"
	goopenai "github.com/sashabaranov/go-openai"
	stripe "github.com/stripe/stripe-go/v82"
)

type Extraction struct {
	OrderRef string `json:"order_ref"`
	Cents    int64  `json:"cents"`
}

func openaiKey(ctx context.Context, client openai.Client, params *stripe.PaymentIntentParams) error {
	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt"})
	if err != nil {
		return err
	}
	var ex Extraction
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &ex); err != nil {
		return err
	}
	params.IdempotencyKey = stripe.String("charge:" + ex.OrderRef) // want `built from openai\.ChatCompletionService\.New \(model output, differs per call\)`
	return nil
}

func goOpenAIKey(ctx context.Context, c *goopenai.Client, req *http.Request) error {
	resp, err := c.CreateChatCompletion(ctx, goopenai.ChatCompletionRequest{Model: "gpt"})
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", resp.Choices[0].Message.Content) // want `built from openai\.Client\.CreateChatCompletion`
	return nil
}

func anthropicKey(ctx context.Context, c anthropic.Client, req *http.Request) error {
	msg, err := c.Messages.New(ctx, anthropic.MessageNewParams{Model: "claude"})
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", msg.Content[0].Text) // want `built from anthropic\.MessageService\.New`
	return nil
}

// The extraction is frozen in the intent row and read back before the key
// is derived: silent.
func frozenExtraction(ctx context.Context, client openai.Client, conn *pgx.Conn, params *stripe.PaymentIntentParams) error {
	resp, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt"})
	if err != nil {
		return err
	}
	var ex Extraction
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &ex); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `insert into intents (order_ref, cents) values ($1, $2) on conflict do nothing`, ex.OrderRef, ex.Cents); err != nil {
		return err
	}
	var frozen Extraction
	if err := conn.QueryRow(ctx, `select order_ref, cents from intents where order_ref = $1`, ex.OrderRef).Scan(&frozen.OrderRef, &frozen.Cents); err != nil {
		return err
	}
	params.IdempotencyKey = stripe.String("charge:" + frozen.OrderRef)
	return nil
}
