// Command demo is a small payment worker whose idempotency key does not hold:
// it reads a charge from stdin and posts it to $PROVIDER_URL with a key drawn
// inside the attempt, so a redelivered message is charged twice.
//
// It is the README's quick start: from the repository root,
// `go run . lint ./examples/demo/...` reports the key (IDEM001), and
// `go run . restart-test --handler 'go run ./examples/demo' --message
// examples/demo/message.json --kill-at response` shows the double charge.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
)

// Charge is the message the queue delivers, possibly more than once.
type Charge struct {
	TenantID string `json:"tenant_id"`
	OrderID  string `json:"order_id"`
	Cents    int64  `json:"amount_cents"`
}

// newKey draws a fresh random key: a redelivered message gets another one,
// so the provider charges twice.
func newKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// pay asks the provider to charge c.
func pay(providerURL string, c Charge) error {
	body, err := json.Marshal(map[string]any{"amount_cents": c.Cents, "order": c.OrderID})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, providerURL+"/v1/charges", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", newKey())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("provider answered %s", resp.Status)
	}
	return nil
}

func main() {
	var c Charge
	if err := json.NewDecoder(os.Stdin).Decode(&c); err != nil {
		fmt.Fprintln(os.Stderr, "demo: read the message:", err)
		os.Exit(2)
	}
	if err := pay(os.Getenv("PROVIDER_URL"), c); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}
