// Command localorder is an HTTP server (a --deliver handler) whose effect
// lives in its own database: it creates an order row. The operation's key
// is the business intent (tenant and the payment's intent reference).
//
// By default it is the second article's fix 1: the key is claimed, the
// order written and the key completed in one transaction, so a crash at any
// point leaves either everything or nothing, and a redelivery replays the
// stored response. With -order-first it commits the order, then records the
// key in a second transaction: a crash between the two commits makes the
// redelivery create the order again.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
)

type message struct {
	Tenant  string `json:"tenant"`
	Payment struct {
		Valor      string `json:"valor"`
		Referencia string `json:"referencia_intencao"`
	} `json:"payment"`
}

func main() {
	orderFirst := flag.Bool("order-first", false, "commit the order before the key (the bug)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: localorder [-order-first] ADDR")
		os.Exit(2)
	}
	create := createOrderOneTransaction
	if *orderFirst {
		create = createOrderThenKey
	}
	http.HandleFunc("/orders", func(w http.ResponseWriter, r *http.Request) {
		var msg message
		if err := json.NewDecoder(r.Body).Decode(&msg); err != nil || msg.Tenant == "" || msg.Payment.Referencia == "" {
			http.Error(w, "bad message", http.StatusBadRequest)
			return
		}
		key := msg.Tenant + ":" + msg.Payment.Referencia
		conn, err := pgx.Connect(r.Context(), os.Getenv("DATABASE_URL"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		defer conn.Close(context.Background())
		resp, err := create(r.Context(), conn, key, msg.Payment.Valor)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, resp)
	})
	if err := http.ListenAndServe(flag.Arg(0), nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// createOrderOneTransaction claims the key, writes the order and completes
// the key in one transaction. A concurrent request with the same key waits
// on the key's row and then sees it completed.
func createOrderOneTransaction(ctx context.Context, conn *pgx.Conn, key, amount string) (string, error) {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	claim := `insert into idempotency_keys (key, status) values ($1, 'processing')`
	// mutant:on-conflict
	claim += ` on conflict do nothing`
	// mutant:end
	tag, err := tx.Exec(ctx, claim, key)
	if err != nil {
		return "", err
	}
	if tag.RowsAffected() == 0 {
		// mutant:replay-response
		return storedResponse(ctx, tx, key)
		// mutant> return `{"replayed":true}`, nil // a new rendering, not the stored response
		// mutant:end
	}
	var id int64
	if err := tx.QueryRow(ctx, `insert into orders (op_key, amount) values ($1, $2) returning id`, key, amount).Scan(&id); err != nil {
		return "", err
	}
	resp := fmt.Sprintf(`{"order_id":%d}`, id)
	if _, err := tx.Exec(ctx, `update idempotency_keys set status = 'completed', response = $2 where key = $1`, key, resp); err != nil {
		return "", err
	}
	return resp, tx.Commit(ctx)
}

// createOrderThenKey checks the key, commits the order, and only then
// records the key: the two commits are the window.
func createOrderThenKey(ctx context.Context, conn *pgx.Conn, key, amount string) (string, error) {
	if resp, err := storedResponse(ctx, conn, key); err == nil {
		return resp, nil
	} else if !errors.Is(err, pgx.ErrNoRows) {
		return "", err
	}
	var id int64
	if err := conn.QueryRow(ctx, `insert into orders (op_key, amount) values ($1, $2) returning id`, key, amount).Scan(&id); err != nil {
		return "", err
	}
	resp := fmt.Sprintf(`{"order_id":%d}`, id)
	// The work between the commits (here a pause standing in for the
	// confirmation e-mail) is where a crash leaves an order without a key.
	time.Sleep(200 * time.Millisecond)
	_, err := conn.Exec(ctx, `insert into idempotency_keys (key, status, response) values ($1, 'completed', $2)`, key, resp)
	return resp, err
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func storedResponse(ctx context.Context, q querier, key string) (string, error) {
	var resp *string
	err := q.QueryRow(ctx, `select response from idempotency_keys where key = $1 and status = 'completed'`, key).Scan(&resp)
	if err != nil {
		return "", err
	}
	if resp == nil {
		return "", errors.New("key without a response")
	}
	return *resp, nil
}
