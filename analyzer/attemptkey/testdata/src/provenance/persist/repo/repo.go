// Package repo writes payouts; the caller's package sends them.
package repo

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

type Payout struct {
	ID     string
	Amount int64
}

type Repo struct{ db *pgx.Conn }

// CreatePayout claims the payout row before anything is sent.
func (r *Repo) CreatePayout(ctx context.Context, p *Payout) error {
	_, err := r.db.Exec(ctx, "insert into payouts (id, amount) values ($1, $2) on conflict do nothing", p.ID, p.Amount)
	return err
}

// Touch writes nothing of the payout.
func (r *Repo) Touch(ctx context.Context, p *Payout) error {
	_, err := r.db.Exec(ctx, "update payouts set seen = now()")
	return err
}

// ClaimPayout draws the payout's id and claims its row before returning
// it: the row, not the caller, decides.
func (r *Repo) ClaimPayout(ctx context.Context, amount int64) (*Payout, error) {
	p := &Payout{ID: uuid.NewString(), Amount: amount}
	if _, err := r.db.Exec(ctx, "insert into payouts (id, amount) values ($1, $2) on conflict do nothing", p.ID, p.Amount); err != nil {
		return nil, err
	}
	return p, nil
}

// DraftPayout draws the id and writes nothing.
func (r *Repo) DraftPayout(amount int64) *Payout {
	return &Payout{ID: uuid.NewString(), Amount: amount}
}
