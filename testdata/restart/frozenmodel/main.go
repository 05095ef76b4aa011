// Command frozenmodel is a correct payment handler with a model in the
// loop: the model is asked once, its extraction is frozen in the intent row
// (insert … on conflict do nothing, then read back), and the key is derived
// from the frozen extraction. A redelivery reads the intent instead of
// asking the model again, so key and payload never drift. The intent is
// found by the business message (sender and text), not by the transport's
// message id, so the same message re-sent under a new id is not asked
// about again either.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/idemcheck/idemcheck/derive"
)

type message struct {
	MessageID string `json:"message_id"`
	Tenant    string `json:"tenant"`
	From      string `json:"from"`
	Text      string `json:"text"`
}

// identity names the business message: who sent what. The sender is its
// phone's digits, so a relay that writes +55 11 98765-4321 as
// +5511987654321 names the same sender.
func (m message) identity() string {
	sum := sha256.Sum256([]byte(phoneDigits(m.From) + "\x00" + m.Text))
	return hex.EncodeToString(sum[:])
}

func phoneDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

func main() {
	ctx := context.Background()
	var msg message
	if err := json.NewDecoder(os.Stdin).Decode(&msg); err != nil || msg.MessageID == "" {
		fail(1, "bad message: %v", err)
	}
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fail(75, "database: %v", err)
	}
	defer conn.Close(ctx)

	extraction, key, status := readIntent(ctx, conn, msg)
	if extraction == "" {
		freezeIntent(ctx, conn, msg, askModel(msg.Text))
		extraction, key, status = readIntent(ctx, conn, msg)
	}
	if status == "done" {
		return
	}
	code, body := post(key, extraction)
	switch {
	case code == http.StatusOK:
		var out struct{ ID string }
		_ = json.Unmarshal(body, &out)
		if _, err := conn.Exec(ctx, `update intents set status = 'done', charge_id = $3, response = $4 where tenant = $1 and message = $2`,
			msg.Tenant, msg.identity(), out.ID, string(body)); err != nil {
			fail(75, "database: %v", err)
		}
	case code == http.StatusConflict || code >= 500:
		fail(75, "provider busy (%d): retry later", code)
	default:
		fail(1, "provider refused the payment (%d): %s", code, body)
	}
}

func readIntent(ctx context.Context, conn *pgx.Conn, msg message) (extraction, key, status string) {
	err := conn.QueryRow(ctx, `select extraction, idem_key, status from intents where tenant = $1 and message = $2`,
		msg.Tenant, msg.identity()).Scan(&extraction, &key, &status)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		fail(75, "database: %v", err)
	}
	return extraction, key, status
}

// freezeIntent stores the first extraction; a concurrent attempt's
// different extraction loses the race and is thrown away.
func freezeIntent(ctx context.Context, conn *pgx.Conn, msg message, extraction string) {
	res, err := derive.DefaultSchema().Derive([]byte(os.Getenv("IDEMPOTENCY_HMAC_KEY")),
		derive.Intent{Tenant: msg.Tenant, Action: "pix.cobranca", Payload: []byte(extraction)})
	if err != nil {
		fail(1, "derive: %v", err)
	}
	if _, err := conn.Exec(ctx, `insert into intents (tenant, message, message_id, extraction, idem_key) values ($1, $2, $3, $4, $5)
		on conflict (tenant, message) do nothing`, msg.Tenant, msg.identity(), msg.MessageID, extraction, res.Key); err != nil {
		fail(75, "database: %v", err)
	}
}

func askModel(text string) string {
	reqBody, _ := json.Marshal(map[string]any{
		"model": "extractor",
		"messages": []map[string]string{
			{"role": "system", "content": "Extract the Pix payment as JSON: cliente_id, valor, chave_pix_destino, referencia_intencao."},
			{"role": "user", "content": text},
		},
	})
	resp, err := http.Post(os.Getenv("MODEL_URL")+"/v1/chat/completions", "application/json", bytes.NewReader(reqBody))
	if err != nil {
		fail(75, "model: %v", err)
	}
	defer resp.Body.Close()
	var out struct {
		Choices []struct {
			Message struct{ Content string }
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Choices) == 0 {
		fail(75, "model: bad answer: %v", err)
	}
	return out.Choices[0].Message.Content
}

func post(key, payload string) (int, []byte) {
	req, _ := http.NewRequest(http.MethodPost, os.Getenv("PROVIDER_URL")+"/v1/charges", bytes.NewReader([]byte(payload)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail(75, "provider: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "frozenmodel: "+format+"\n", args...)
	os.Exit(code)
}
