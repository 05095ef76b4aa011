// Package llms is a minimal stub of github.com/tmc/langchaingo/llms for tests.
package llms

import "context"

type Model interface {
	Call(ctx context.Context, prompt string) (string, error)
}

func GenerateFromSinglePrompt(ctx context.Context, llm Model, prompt string) (string, error) {
	return llm.Call(ctx, prompt)
}
