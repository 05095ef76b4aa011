// Command modelkey is a broken payment handler: it asks the model to
// extract the payment on every attempt and derives the key from that
// extraction. Models drift between calls (a reformatted reference, a
// re-read amount), so a redelivery computes a different key and charges
// again, with a different payload.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/jackc/pgx/v5"

	"github.com/idemcheck/idemcheck/derive"
)

type message struct {
	MessageID string `json:"message_id"`
	Tenant    string `json:"tenant"`
	Text      string `json:"text"`
}

func main() {
	ctx := context.Background()
	var msg message
	if err := json.NewDecoder(os.Stdin).Decode(&msg); err != nil {
		fail(1, "bad message: %v", err)
	}
	conn, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		fail(75, "database: %v", err)
	}
	defer conn.Close(ctx)

	var done bool
	if err := conn.QueryRow(ctx, `select exists (select 1 from payments where message_id = $1)`, msg.MessageID).Scan(&done); err != nil {
		fail(75, "database: %v", err)
	}
	if done {
		return
	}
	extraction := askModel(msg.Text) // the bug: asked again on every attempt
	res, err := derive.DefaultSchema().Derive([]byte(os.Getenv("IDEMPOTENCY_HMAC_KEY")),
		derive.Intent{Tenant: msg.Tenant, Action: "pix.cobranca", Payload: []byte(extraction)})
	if err != nil {
		fail(1, "derive: %v", err)
	}
	chargeID := charge(res.Key, extraction)
	if _, err := conn.Exec(ctx, `insert into payments (message_id, idem_key, extraction, charge_id) values ($1, $2, $3, $4) on conflict do nothing`,
		msg.MessageID, res.Key, extraction, chargeID); err != nil {
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

func charge(key, body string) string {
	req, _ := http.NewRequest(http.MethodPost, os.Getenv("PROVIDER_URL")+"/v1/charges", bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail(75, "provider: %v", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		fail(75, "provider: %s: %s", resp.Status, data)
	}
	var out struct{ ID string }
	_ = json.Unmarshal(data, &out)
	return out.ID
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "modelkey: "+format+"\n", args...)
	os.Exit(code)
}
