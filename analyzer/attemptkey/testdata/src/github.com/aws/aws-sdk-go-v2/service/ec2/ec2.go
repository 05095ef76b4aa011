// Package ec2 is a minimal stub for tests.
package ec2

import "context"

type Client struct{}

type RunInstancesInput struct {
	ClientToken *string
	ImageId     *string
}

type RunInstancesOutput struct{}

func (c *Client) RunInstances(ctx context.Context, params *RunInstancesInput) (*RunInstancesOutput, error) {
	return &RunInstancesOutput{}, nil
}
