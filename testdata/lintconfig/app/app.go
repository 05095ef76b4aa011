// Package app is a payment worker linted with testdata/lintconfig's
// .idemcheck.yaml.
package app

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/http"

	"github.com/idemcheck/idemcheck/testdata/lintconfig/acme/bus"
	"github.com/idemcheck/idemcheck/testdata/lintconfig/acme/ids"
	"github.com/idemcheck/idemcheck/testdata/lintconfig/acme/pay"
	"github.com/idemcheck/idemcheck/testdata/lintconfig/acme/store"
)

// sources, sinks, headers: a configured source sent in a configured header.
func notify(req *http.Request) {
	req.Header.Set("X-Op-Token", ids.Token())
}

// sources (receiver, kind counter) reaching a configured sink function.
func chargeNext(g *ids.Gen, amount int64) error {
	return pay.Charge(fmt.Sprint("c-", g.Next()), amount)
}

// receiver: Catalog.Next is not Gen.Next: silent.
func chargePage(c *ids.Catalog, amount int64) error {
	return pay.Charge(fmt.Sprint("page-", c.Next()), amount)
}

// sources (fills) reaching a configured sink field.
func transfer(amount int64) error {
	b := make([]byte, 16)
	ids.Fill(b)
	return pay.Send(pay.Transfer{OperationRef: hex.EncodeToString(b), Amount: amount})
}

// sources (field): the broker's per-delivery ticket, under a configured
// key name (key_name), handed to a callback.
func handle(d bus.Delivery, send func(string) error) error {
	opRef := d.OrderID + ":" + d.Ticket
	return send(opRef)
}

// barriers: the intent's stored key is stable: silent.
func chargeIntent(d bus.Delivery) error {
	return pay.Charge(store.LoadIntent(d.OrderID), d.Amount)
}

// operations (store): the key is saved before it is sent: silent.
func chargeSaved(d bus.Delivery, send func(string) error) error {
	opRef := ids.Token()
	if err := store.Save(d.OrderID, opRef); err != nil {
		return err
	}
	return send(opRef)
}

// tables and tenant_columns: a configured idempotency table looked up
// by key alone is reported; scoped by the configured tenant column, not.
func lookup(ctx context.Context, db *sql.DB, loja, key string) {
	db.QueryRowContext(ctx, "SELECT status FROM pedidos_pix WHERE chave_idempotencia = $1", key)
	db.QueryRowContext(ctx, "SELECT status FROM pedidos_pix WHERE cnpj_loja = $1 AND chave_idempotencia = $2", loja, key)
}

// disable: IDEM005 (a bare digest as a key) is turned off.
func digestKey(req *http.Request, orderID string) {
	sum := sha256.Sum256([]byte(orderID))
	req.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:]))
}
