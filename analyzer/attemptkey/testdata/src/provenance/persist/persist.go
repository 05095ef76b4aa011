// Package persist: a key written to the database before the effect, by a
// repository method of another package or a helper of this one, is a
// barrier as when the write is in the same function (issue 18).
package persist

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	amqp "github.com/rabbitmq/amqp091-go"

	"provenance/persist/repo"
)

type Provider struct{}

func (p *Provider) Send(ctx context.Context, idempotencyKey string, amount int64) error { return nil }

type Order struct{ Cents int64 }

// Silent: the claim id is stored by the repository before the send.
func Claimed(ctx context.Context, r *repo.Repo, prov *Provider, d amqp.Delivery) error {
	var o Order
	_ = json.Unmarshal(d.Body, &o)
	id := uuid.NewString()
	if err := r.CreatePayout(ctx, &repo.Payout{ID: id, Amount: o.Cents}); err != nil {
		return err
	}
	return prov.Send(ctx, id, o.Cents)
}

// Found: stored only after the send.
func StoredAfter(ctx context.Context, r *repo.Repo, prov *Provider, d amqp.Delivery) error {
	id := uuid.NewString()
	if err := prov.Send(ctx, id, 100); err != nil { // want `built from uuid\.NewString`
		return err
	}
	return r.CreatePayout(ctx, &repo.Payout{ID: id, Amount: 100})
}

// Found: the repository call before the send does not write the key.
func NotWritten(ctx context.Context, r *repo.Repo, prov *Provider, d amqp.Delivery) error {
	id := uuid.NewString()
	if err := r.Touch(ctx, &repo.Payout{ID: id}); err != nil {
		return err
	}
	return prov.Send(ctx, id, 100) // want `built from uuid\.NewString`
}

type store struct{ db *pgx.Conn }

func (s *store) claim(ctx context.Context, id string, cents int64) error {
	_, err := s.db.Exec(ctx, "insert into payouts (id, amount) values ($1, $2) on conflict do nothing", id, cents)
	return err
}

// Silent: a helper of this package claims the key first.
func ClaimedLocally(ctx context.Context, s *store, prov *Provider, d amqp.Delivery) error {
	id := uuid.NewString()
	if err := s.claim(ctx, id, 100); err != nil {
		return err
	}
	return prov.Send(ctx, id, 100)
}

// Found: the claim is on one branch only.
func ClaimedSometimes(ctx context.Context, s *store, prov *Provider, d amqp.Delivery) error {
	id := uuid.NewString()
	if d.Redelivered {
		_ = s.claim(ctx, id, 100)
	}
	return prov.Send(ctx, id, 100) // want `built from uuid\.NewString`
}

// Silent: the repository draws the id and claims the row before it
// returns it.
func ClaimedByRepo(ctx context.Context, r *repo.Repo, prov *Provider, d amqp.Delivery) error {
	p, err := r.ClaimPayout(ctx, 100)
	if err != nil {
		return err
	}
	return prov.Send(ctx, p.ID, p.Amount)
}

// Found: the repository draws the id and writes nothing.
func DraftedByRepo(ctx context.Context, r *repo.Repo, prov *Provider, d amqp.Delivery) error {
	p := r.DraftPayout(100)
	return prov.Send(ctx, p.ID, p.Amount) // want `built from uuid\.NewString`
}

// claimLocal is ClaimPayout in this package.
func (s *store) claimLocal(ctx context.Context, cents int64) (string, error) {
	id := uuid.NewString()
	if _, err := s.db.Exec(ctx, "insert into payouts (id, amount) values ($1, $2) on conflict do nothing", id, cents); err != nil {
		return "", err
	}
	return id, nil
}

// Silent: a helper of this package claims the id it returns.
func ClaimedByHelper(ctx context.Context, s *store, prov *Provider, d amqp.Delivery) error {
	id, err := s.claimLocal(ctx, 100)
	if err != nil {
		return err
	}
	return prov.Send(ctx, id, 100)
}
