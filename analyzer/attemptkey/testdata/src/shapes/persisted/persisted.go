// Package persisted: a fresh key counts as persisted before acting only
// when a database write of it runs before the effect on every path. Writes
// after the effect, on one branch, in another function, or calls merely
// named Mark*, Record* or Store* do not silence the finding.
package persisted

import (
	"context"
	"database/sql"
	"errors"

	"github.com/google/uuid"
)

type Ledger struct{}

// Collect moves money; the provider deduplicates on idempotencyKey.
func (l *Ledger) Collect(ctx context.Context, idempotencyKey string, cents int64) error { return nil }

type Loans struct{ db *sql.DB }

// MarkInstallmentPaid records the key, after the fact.
func (l *Loans) MarkInstallmentPaid(ctx context.Context, id, ik string) error {
	_, err := l.db.ExecContext(ctx, "update installments set paid_key = $1 where id = $2", ik, id)
	return err
}

// Store writes intents.
type Store struct{ db *sql.DB }

func (s *Store) SaveIntent(ctx context.Context, key string) error {
	_, err := s.db.ExecContext(ctx, "insert into intents (idem_key) values ($1)", key)
	return err
}

// RecordAttempt is named like a write but writes nothing.
func RecordAttempt(key string) {}

type AppError struct{ details map[string]any }

func NewError(msg string) *AppError                                  { return &AppError{} }
func (e *AppError) WithReportableDetails(d map[string]any) *AppError { e.details = d; return e }
func (e *AppError) Mark(kind error) error                            { return errors.New("x") }

var ErrValidation = errors.New("validation")

// Found.

func collectThenMark(ctx context.Context, l *Ledger, loans *Loans, id string) error {
	ik := uuid.NewString()
	if err := l.Collect(ctx, ik, 100); err != nil { // want `built from uuid\.NewString`
		return err
	}
	return loans.MarkInstallmentPaid(ctx, id, ik)
}

func errorBuilder(ctx context.Context, l *Ledger) error {
	k := uuid.NewString()
	if err := l.Collect(ctx, k, 100); err != nil { // want `built from uuid\.NewString`
		return NewError("collect failed").WithReportableDetails(map[string]any{"key": k}).Mark(ErrValidation)
	}
	return nil
}

func recordNamed(ctx context.Context, l *Ledger) error {
	k := uuid.NewString()
	RecordAttempt(k)
	return l.Collect(ctx, k, 100) // want `built from uuid\.NewString`
}

func newKey() string { return uuid.NewString() }

// RecordKey stores a key from the same helper, in another function.
func RecordKey(ctx context.Context, db *sql.DB) {
	db.ExecContext(ctx, "insert into keys (k) values ($1)", newKey())
}

func chargeWithHelper(ctx context.Context, l *Ledger) error {
	return l.Collect(ctx, newKey(), 100) // want `built from uuid\.NewString`
}

func writeOnOneBranch(ctx context.Context, db *sql.DB, l *Ledger, audit bool) error {
	k := uuid.NewString()
	if audit {
		db.ExecContext(ctx, "insert into intents (idem_key) values ($1)", k)
	}
	return l.Collect(ctx, k, 100) // want `built from uuid\.NewString`
}

// Silent: the write of the key comes first on every path; a redelivery's
// new key hits the unique constraint before any money moves.

func writeThenCollect(ctx context.Context, db *sql.DB, l *Ledger) error {
	k := uuid.NewString()
	if _, err := db.ExecContext(ctx, "insert into intents (idem_key) values ($1)", k); err != nil {
		return err
	}
	return l.Collect(ctx, k, 100)
}

func saveThenCollect(ctx context.Context, s *Store, l *Ledger) error {
	k := uuid.NewString()
	if err := s.SaveIntent(ctx, k); err != nil {
		return err
	}
	return l.Collect(ctx, k, 100)
}
