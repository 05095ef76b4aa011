// Package response: the answer to the request being served is no sink. A
// key echoed back to the client in the response body goes nowhere an
// effect could repeat; the same struct handed to a client that sends it
// on is.
package response

import (
	"context"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
)

type Payout struct {
	Amount         int64
	IdempotencyKey string
}

type Client struct{}

func (c *Client) Create(ctx context.Context, p Payout) error { return nil }

// Silent: the key goes back to the client in the answer.
func answered(c echo.Context, amount int64) error {
	p := Payout{Amount: amount, IdempotencyKey: uuid.NewString()}
	return c.JSON(200, p)
}

// Found: the same struct sent to the provider in a retry loop.
func sent(ctx context.Context, cl *Client, amount int64) error {
	var err error
	for i := 0; i < 3; i++ {
		p := Payout{Amount: amount, IdempotencyKey: uuid.NewString()}
		if err = cl.Create(ctx, p); err == nil { // want `built from uuid\.NewString`
			return nil
		}
	}
	return err
}
