// Package leaves: a key is reported where it leaves, at the request sent
// to the provider, with the receipt that stores it as related
// information.
package leaves

import (
	"context"
	"database/sql"

	"github.com/google/uuid"
)

type TransferReq struct {
	Amount         int64
	IdempotencyKey string
}

type Receipt struct {
	Amount         int64
	IdempotencyKey string
}

type Provider struct{}

func (p *Provider) Transfer(ctx context.Context, r TransferReq) error { return nil }

func pay(ctx context.Context, p *Provider, db *sql.DB, amount int64) error {
	k := uuid.NewString()
	if err := p.Transfer(ctx, TransferReq{Amount: amount, IdempotencyKey: k}); err != nil { // want `built from uuid\.NewString`
		return err
	}
	rec := Receipt{Amount: amount, IdempotencyKey: k}
	_, err := db.ExecContext(ctx, "insert into receipts (amount, idem_key) values ($1, $2)", rec.Amount, rec.IdempotencyKey)
	return err
}

// Silent: a receipt of a stable key.
func record(ctx context.Context, db *sql.DB, orderID string, amount int64) error {
	rec := Receipt{Amount: amount, IdempotencyKey: "order-" + orderID}
	_, err := db.ExecContext(ctx, "insert into receipts (amount, idem_key) values ($1, $2)", rec.Amount, rec.IdempotencyKey)
	return err
}
