// Package store writes deliveries, for fieldsens: its summary crosses the
// package boundary as a fact.
package store

import (
	"context"

	"provenance/fieldsens/common"
)

type Delivery struct {
	UID            string
	IdempotencyKey string
	Mode           string
}

type CreateParams struct {
	ID             common.Text
	IdempotencyKey common.Text
}

type Queries struct{}

func (Queries) InsertDelivery(ctx context.Context, p []CreateParams) error { return nil }

type Repository interface {
	CreateAll(ctx context.Context, ds []*Delivery) error
}

type Store struct{ q Queries }

func (s *Store) CreateAll(ctx context.Context, ds []*Delivery) error {
	for i := 0; i < len(ds); i += 100 {
		end := min(i+100, len(ds))
		chunk := ds[i:end]
		params := make([]CreateParams, len(chunk))
		for j, d := range chunk {
			if d.Mode == "" {
				d.Mode = "at-least-once"
			}
			params[j] = toParams(d)
		}
		if err := s.q.InsertDelivery(ctx, params); err != nil {
			return err
		}
	}
	return nil
}

func toParams(d *Delivery) CreateParams {
	return CreateParams{ID: common.StringToText(d.UID), IdempotencyKey: common.StringToText(d.IdempotencyKey)}
}
