package restarttest

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// A clean round that wrote to the handler's own tables but sent no effect
// request has nothing restart-test can count unless --effect-sql names the
// effect. The tables whose rows grew in that round are the candidates, so
// the advice names them instead of a made-up "orders".

// tableRows counts the rows of every table in the run's schema.
func (db *database) tableRows(ctx context.Context) (map[string]int64, error) {
	tx, err := db.setup.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	rows, err := tx.Query(ctx, "select tablename from pg_tables where schemaname = $1 order by tablename", db.schema)
	if err != nil {
		return nil, err
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	counts := make(map[string]int64, len(tables))
	for _, t := range tables {
		var n int64
		q := "select count(*) from " + pgx.Identifier{db.schema, t}.Sanitize()
		if err := tx.QueryRow(ctx, q).Scan(&n); err != nil {
			return nil, err
		}
		counts[t] = n
	}
	return counts, nil
}

// grownTables lists, in name order, the tables that hold more rows than
// before, with how many more.
func grownTables(before, after map[string]int64) []tableGrowth {
	var out []tableGrowth
	for t, n := range after {
		if n > before[t] {
			out = append(out, tableGrowth{table: t, rows: n - before[t]})
		}
	}
	slices.SortFunc(out, func(a, b tableGrowth) int { return strings.Compare(a.table, b.table) })
	return out
}

type tableGrowth struct {
	table string
	rows  int64
}

// effectSQLAdvice is the advice for a clean round with nothing to judge:
// with the tables it wrote, an --effect-sql count for each.
func effectSQLAdvice(grown []tableGrowth) string {
	if len(grown) == 0 {
		return nothingToJudgeAdvice
	}
	const most = 3
	var wrote, flags []string
	for i, g := range grown {
		if i == most {
			wrote = append(wrote, fmt.Sprintf("%d more", len(grown)-most))
			break
		}
		wrote = append(wrote, fmt.Sprintf("%s (+%d)", g.table, g.rows))
		flags = append(flags, fmt.Sprintf("--effect-sql 'select count(*) from %s'", sqlName(g.table)))
	}
	return fmt.Sprintf("it added rows to %s: count the table that is its effect with %s, or send its effect requests to $PROVIDER_URL",
		strings.Join(wrote, ", "), strings.Join(flags, " or "))
}

// sqlName is a table name as a query would spell it: quoted only when it
// must be (a quote inside the shell's single quotes would need escaping).
func sqlName(t string) string {
	for i, r := range t {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return pgx.Identifier{t}.Sanitize()
		}
	}
	return t
}
