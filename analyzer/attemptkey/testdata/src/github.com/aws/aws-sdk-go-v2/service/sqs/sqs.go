// Package sqs is a minimal stub for tests.
package sqs

import "context"

type Client struct{}

type SendMessageInput struct {
	QueueUrl               *string
	MessageBody            *string
	MessageDeduplicationId *string
	MessageGroupId         *string
}

type SendMessageOutput struct{ MessageId *string }

func (c *Client) SendMessage(ctx context.Context, params *SendMessageInput) (*SendMessageOutput, error) {
	return &SendMessageOutput{}, nil
}
