package restarttest

import (
	"strings"
	"testing"
)

// A second tenant's effect that no request was made for is blamed on a
// lookup not scoped by tenant, unless the second message kept the first's
// ids: then a handler that skips messages it has handled was right to, and
// the explanation says to name the message's id.
func TestSecondTenantLossNamesKeptIDs(t *testing.T) {
	second := &Round{}
	scoped := secondTenantLoss(second, "POST /v1/charges", nil, false)
	if !strings.Contains(scoped, "not scoped by tenant") {
		t.Errorf("ids renewed: %q, want the tenant scoping named", scoped)
	}
	kept := secondTenantLoss(second, "POST /v1/charges", nil, true)
	if strings.Contains(kept, "not scoped by tenant") || !strings.Contains(kept, "--envelope-field") {
		t.Errorf("ids kept: %q, want the kept ids and --envelope-field named", kept)
	}
	sameKey := secondTenantLoss(&Round{EffectRequests: []EffectRequest{{Endpoint: "POST /v1/charges", IdempotencyKey: "k1"}}},
		"POST /v1/charges", map[string]bool{"k1": true}, true)
	if !strings.Contains(sameKey, "first tenant's key") {
		t.Errorf("same key: %q", sameKey)
	}
}
