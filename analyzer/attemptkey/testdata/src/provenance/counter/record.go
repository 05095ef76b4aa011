package counter

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// One key-site engine (issue 18): the plain Key field of an idempotency
// record is a key for IDEM001 as it is for IDEM003.
type IdempotencyRecord struct {
	Key    string
	Amount int64
}

func saveRecord(ctx context.Context, db *sql.DB, amount int64) error {
	rec := IdempotencyRecord{Key: time.Now().String(), Amount: amount} // want `built from time\.Now`
	_, err := db.ExecContext(ctx, "insert into idempotency_records (key, amount) values ($1, $2)", rec.Key, rec.Amount)
	return err
}

// Silent: the record's key from the order.
func saveStable(ctx context.Context, db *sql.DB, orderID string, amount int64) error {
	rec := IdempotencyRecord{Key: fmt.Sprint("order-", orderID), Amount: amount}
	_, err := db.ExecContext(ctx, "insert into idempotency_records (key, amount) values ($1, $2)", rec.Key, rec.Amount)
	return err
}
