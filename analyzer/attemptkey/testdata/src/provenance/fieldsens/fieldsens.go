// Package fieldsens: shape 4 of issue 18. Each field of a struct, map or
// slice element carries its own taint.
package fieldsens

import (
	"context"

	"github.com/oklog/ulid/v2"
)

type Event struct {
	ID             string
	IdempotencyKey string
}

type Delivery struct {
	UID            string
	IdempotencyKey string
}

type Repo struct{}

func (r *Repo) CreateDeliveries(ctx context.Context, ds []*Delivery) error { return nil }

type Sender struct{}

func (s *Sender) Send(ctx context.Context, d *Delivery) error { return nil }

// Silent: the key is copied from the event; the ULID is its sibling.
func fanOut(ctx context.Context, repo *Repo, s *Sender, ev Event) error {
	d := &Delivery{UID: ulid.Make().String(), IdempotencyKey: ev.IdempotencyKey}
	if err := repo.CreateDeliveries(ctx, []*Delivery{d}); err != nil {
		return err
	}
	return s.Send(ctx, d)
}

// Silent: map elements keep their own taint.
func asMap(ev Event) map[string]string {
	m := map[string]string{"uid": ulid.Make().String()}
	m["idempotency_key"] = ev.IdempotencyKey
	return m
}

// Found: the ULID in the key field itself.
func fanOutFresh(ctx context.Context, s *Sender, ev Event) error {
	d := &Delivery{UID: ev.ID, IdempotencyKey: ulid.Make().String()}
	return s.Send(ctx, d) // want `built from ulid\.Make`
}
