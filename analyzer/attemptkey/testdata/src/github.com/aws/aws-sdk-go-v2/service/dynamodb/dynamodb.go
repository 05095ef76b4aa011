// Package dynamodb is a minimal stub for tests.
package dynamodb

import "context"

type Client struct{}

type TransactWriteItemsInput struct {
	ClientRequestToken *string
	TableName          *string
}

type TransactWriteItemsOutput struct{}

func (c *Client) TransactWriteItems(ctx context.Context, params *TransactWriteItemsInput) (*TransactWriteItemsOutput, error) {
	return &TransactWriteItemsOutput{}, nil
}
