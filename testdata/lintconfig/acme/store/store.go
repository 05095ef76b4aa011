// Package store keeps payment intents.
package store

import "github.com/idemcheck/idemcheck/testdata/lintconfig/acme/ids"

var keys = map[string]string{} // stands for the intents table

// LoadIntent returns the key stored with the order's intent, drawing and
// storing it on first use: every later attempt reads the same key back.
func LoadIntent(orderID string) string {
	if k, ok := keys[orderID]; ok {
		return k
	}
	keys[orderID] = ids.Token()
	return keys[orderID]
}

// Save writes the order's key to the database.
func Save(orderID, key string) error { return nil }
