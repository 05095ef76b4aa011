// Package retrylib draws a key once per call and retries with it; whether
// that holds is decided by its callers in other packages (retryshared).
package retrylib

import (
	"context"

	"github.com/google/uuid"
)

type Client struct{}

func (c *Client) Charge(ctx context.Context, idempotencyKey string, cents int64) error { return nil }

// ChargeOnce is silent here: nothing in this package redelivers it.
func ChargeOnce(ctx context.Context, c *Client, cents int64) error {
	key := uuid.NewString()
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Charge(ctx, key, cents); err == nil {
			return nil
		}
	}
	return err
}
