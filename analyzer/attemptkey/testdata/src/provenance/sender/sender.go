// Package sender: shape 8 of issue 18. A key drawn by a constructor is
// reported at the call that sends it, with the constructor as related
// information.
package sender

import (
	"context"

	"github.com/google/uuid"
)

type EventHeader struct {
	Type           string
	IdempotencyKey string
}

type Refund struct {
	Header EventHeader
	Amount int64
}

type Bus struct{}

func (b *Bus) Publish(ctx context.Context, r Refund) error { return nil }

func NewEventHeader(typ string) EventHeader {
	return EventHeader{Type: typ, IdempotencyKey: uuid.NewString()}
}

func NewStableHeader(typ, key string) EventHeader {
	return EventHeader{Type: typ, IdempotencyKey: key}
}

// Found at the publish in the retried loop, not in NewEventHeader.
func HandleRefund(ctx context.Context, b *Bus, amounts []int64) error {
	for _, a := range amounts {
		r := Refund{Header: NewEventHeader("refund"), Amount: a}
		if err := b.Publish(ctx, r); err != nil { // want `built from uuid\.NewString`
			return err
		}
	}
	return nil
}

// Silent: the same loop with a key from the event.
func HandleRefundStable(ctx context.Context, b *Bus, eventID string, amounts []int64) error {
	for _, a := range amounts {
		r := Refund{Header: NewStableHeader("refund", eventID), Amount: a}
		if err := b.Publish(ctx, r); err != nil {
			return err
		}
	}
	return nil
}
