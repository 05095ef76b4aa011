// Package openai is a minimal stub of github.com/sashabaranov/go-openai for tests.
package openai

import "context"

type Client struct{}

type ChatCompletionRequest struct {
	Model    string
	Messages []ChatCompletionMessage
}

type ChatCompletionMessage struct {
	Role    string
	Content string
}

type ChatCompletionChoice struct {
	Message ChatCompletionMessage
}

type ChatCompletionResponse struct {
	ID      string
	Choices []ChatCompletionChoice
}

func NewClient(token string) *Client { return &Client{} }

func (c *Client) CreateChatCompletion(ctx context.Context, request ChatCompletionRequest) (ChatCompletionResponse, error) {
	return ChatCompletionResponse{}, nil
}
