package restarttest

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// LocalEffect is what one --effect-sql query counted in the round's schema
// after the round: an effect in the service's own database (an order row,
// a ledger entry) that the fake provider never sees.
type LocalEffect struct {
	Query string `json:"query"`
	Count int64  `json:"count"`
	// Expected is what the query counted after the clean round; effect-once
	// requires Count to equal it. Absent in the clean round itself.
	Expected *int64 `json:"expected,omitempty"`
}

// countLocalEffects runs each query in the schema, read-only, and returns
// the integers they counted.
func (db *database) countLocalEffects(ctx context.Context, queries []string) ([]LocalEffect, error) {
	if len(queries) == 0 {
		return nil, nil
	}
	tx, err := db.setup.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, "set local search_path to "+pgx.Identifier{db.schema}.Sanitize()); err != nil {
		return nil, err
	}
	out := make([]LocalEffect, 0, len(queries))
	for _, q := range queries {
		n, err := countOne(ctx, tx, q)
		if err != nil {
			return nil, fmt.Errorf("--effect-sql %q: %v: it must return one integer, counted in the round's schema", procgroup.Shorten(q, maxErrorText), shortened(err))
		}
		out = append(out, LocalEffect{Query: q, Count: n})
	}
	return out, nil
}

// countOne runs q in a savepoint, so a failing query names itself and
// does not abort the others.
func countOne(ctx context.Context, tx pgx.Tx, q string) (int64, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { _ = sp.Rollback(ctx) }()
	rows, err := sp.Query(ctx, q)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return 0, firstLine(err)
		}
		return 0, errors.New("it returns no row")
	}
	if len(rows.FieldDescriptions()) != 1 {
		return 0, fmt.Errorf("it returns %d columns", len(rows.FieldDescriptions()))
	}
	var n *int64
	if err := rows.Scan(&n); err != nil {
		return 0, errors.New("its value is not an integer")
	}
	if n == nil {
		return 0, errors.New("it returns NULL")
	}
	if rows.Next() {
		return 0, errors.New("it returns more than one row")
	}
	return *n, firstLine(rows.Err())
}

func firstLine(err error) error {
	if err == nil {
		return nil
	}
	line, _, _ := strings.Cut(err.Error(), "\n")
	return errors.New(line)
}

// expectLocal marks each count with what the clean round counted, times
// the business operations the round delivered.
func expectLocal(got, clean []LocalEffect, operations int) {
	for i := range got {
		if i < len(clean) {
			want := clean[i].Count * int64(operations)
			got[i].Expected = &want
		}
	}
}
