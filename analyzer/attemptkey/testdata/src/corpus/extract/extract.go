// Package extract asks a model for the payment fields of a message.
package extract

import (
	"context"
	"encoding/json"

	"github.com/anthropics/anthropic-sdk-go"
)

// Fields is what the model extracts.
type Fields struct {
	OrderRef string `json:"order_ref"`
	Amount   int64  `json:"amount"`
}

// Extract returns the model's reading of text.
func Extract(ctx context.Context, c anthropic.Client, text string) (Fields, error) {
	msg, err := c.Messages.New(ctx, anthropic.MessageNewParams{Model: "claude-sonnet", MaxTokens: 256})
	if err != nil {
		return Fields{}, err
	}
	var f Fields
	err = json.Unmarshal([]byte(msg.Content[0].Text), &f)
	return f, err
}
