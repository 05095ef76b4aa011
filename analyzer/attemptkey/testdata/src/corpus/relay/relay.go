// Package relay forwards charges to the provider client in package keys.
package relay

import (
	"context"

	"corpus/keys"
)

// Relay adds the tenant prefix and forwards.
func Relay(ctx context.Context, p *keys.Provider, tenant, key string, body []byte) error {
	return p.Charge(ctx, tenant+":"+key, body)
}
