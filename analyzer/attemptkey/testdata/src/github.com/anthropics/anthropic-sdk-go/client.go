// Package anthropic is a minimal stub of github.com/anthropics/anthropic-sdk-go for tests.
package anthropic

import "context"

type Client struct {
	Messages MessageService
}

type MessageService struct{}

type MessageNewParams struct {
	Model     string
	MaxTokens int64
}

type ContentBlockUnion struct {
	Type string
	Text string
}

type Message struct {
	ID      string
	Content []ContentBlockUnion
}

func NewClient() Client { return Client{} }

func (r *MessageService) New(ctx context.Context, body MessageNewParams) (*Message, error) {
	return &Message{}, nil
}
