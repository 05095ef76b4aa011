// Package openai is a minimal stub of github.com/openai/openai-go for tests.
package openai

import "context"

type Client struct {
	Chat ChatService
}

type ChatService struct {
	Completions ChatCompletionService
}

type ChatCompletionService struct{}

type ChatCompletionNewParams struct {
	Model    string
	Messages []string
}

type ChatCompletion struct {
	ID      string
	Choices []ChatCompletionChoice
}

type ChatCompletionChoice struct {
	Message ChatCompletionMessage
}

type ChatCompletionMessage struct {
	Content string
}

func NewClient() Client { return Client{} }

func (r *ChatCompletionService) New(ctx context.Context, body ChatCompletionNewParams) (*ChatCompletion, error) {
	return &ChatCompletion{}, nil
}

func String(s string) string { return s }

func UserMessage(s string) string { return s }
