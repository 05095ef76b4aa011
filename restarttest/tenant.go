package restarttest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The second-tenant round: after the message was acknowledged, the same
// message arrives for another tenant (another merchant, account or
// organization sends the same order reference, the same payment), under
// fresh envelope ids. It is another business operation: each tenant's
// effect must happen exactly once, under keys of its own. A handler whose
// lookup is not scoped by tenant takes the second for the first's and
// makes no effect; one whose key leaves the tenant out sends the first
// tenant's key, and the provider answers the second with the first's
// charge.

// tenantNames are the member names (compared without case, "_" or "-")
// taken for the tenant of a message when --tenant-field names none: the
// party whose operations are kept apart, not the payer within it.
var tenantNames = []string{"tenant", "tenantid", "merchant", "merchantid", "account", "accountid",
	"org", "orgid", "organization", "organizationid", "organisation", "organisationid",
	"company", "companyid", "workspace", "workspaceid", "shop", "shopid", "store", "storeid", "seller", "sellerid"}

// findTenant locates the tenant fields of msg: the given paths (each must be
// present, as a string or a number), or else every member at any depth
// whose name is one of tenantNames.
func findTenant(msg []byte, paths []string) ([]envelopeSpan, error) {
	if len(paths) > 0 {
		return namedSpans(msg, paths, "--tenant-field")
	}
	found, err := scalarSpansWhere(msg, func(path string) bool {
		segs := strings.Split(path, ".")
		return slices.Contains(tenantNames, foldName(segs[len(segs)-1]))
	})
	if err != nil {
		return nil, nil // not a JSON object: no tenant to vary
	}
	var out []envelopeSpan
	for _, p := range slices.Sorted(maps.Keys(found)) {
		s := found[p]
		s.path = p
		out = append(out, s)
	}
	return out, nil
}

// foldName lowercases a member name and drops its separators, so tenant_id,
// tenantId and Tenant-ID compare equal.
func foldName(s string) string {
	return strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(s))
}

// tenantApplies: in the default plan when the message names its tenant and
// the clean round did something to count. Not with --client-key: the
// other-client probe keeps clients apart there.
func (h *harness) tenantApplies() bool {
	return !h.cfg.Delivery.clientKey() && len(h.tenant) > 0 && (h.learned.EffectRequests > 0 || len(h.cfg.EffectSQL) > 0)
}

// checkTenantPlan refuses an explicit second-tenant round with nothing to
// vary.
func (h *harness) checkTenantPlan() error {
	for _, k := range h.cfg.KillPoints {
		switch {
		case k.Kind != KillTenant:
		case h.cfg.Delivery.clientKey():
			return errors.New("--kill-at second-tenant does not apply with --client-key: two --client-header values test that clients are kept apart")
		case len(h.tenant) == 0:
			return fmt.Errorf("--kill-at second-tenant: the message names no tenant (a member named %s, at any depth); name one with --tenant-field PATH", strings.Join(tenantNames[:4], ", "))
		}
	}
	return nil
}

// prepareTenant makes the second tenant's message: fresh envelope ids and
// another value, of the same shape, in each tenant field.
func (rs *roundState) prepareTenant() error {
	return rs.prepareSecond(append(slices.Clone(rs.h.envelope), rs.h.tenant...))
}

// tenantOf splits a round's effect requests by tenant: delivery 1 is the
// first tenant's, delivery 2 the second's.
func tenantOf(r *Round, delivery int) *Round {
	sub := *r
	sub.EffectRequests = nil
	for _, q := range r.EffectRequests {
		if q.Delivery == delivery {
			sub.EffectRequests = append(sub.EffectRequests, q)
		}
	}
	sub.Effects = tally(sub.EffectRequests)
	return &sub
}

// checkTenantsApart is effect-once for a second-tenant round: each tenant's
// effect exactly once at every endpoint the clean round called, and the
// second tenant under keys of its own.
func checkTenantsApart(r *Round, exp expectation) Check {
	if len(exp.endpoints) == 0 && len(r.LocalEffects) == 0 {
		return notApplicable(CheckEffectOnce, "no effect request and no --effect-sql: nothing to count")
	}
	first, second := tenantOf(r, 1), tenantOf(r, 2)
	firstKeys := map[string]bool{}
	for _, q := range first.EffectRequests {
		if q.IdempotencyKey != "" {
			firstKeys[q.IdempotencyKey] = true
		}
	}
	var fs []finding
	for _, f := range providerEffects(first, exp.endpoints, exp) {
		f.text = "first tenant: " + f.text
		fs = append(fs, f)
	}
	for _, f := range providerEffects(second, exp.endpoints, exp) {
		if f.severity == sevLost {
			f.text = "second tenant: " + f.text + ": " + secondTenantLoss(second, f.subject, firstKeys, exp.idsKept)
		} else {
			f.text = "second tenant: " + f.text
		}
		fs = append(fs, f)
	}
	if len(r.LocalEffects) > 0 {
		fs = append(fs, localEffects(r.LocalEffects)...)
	}
	if len(fs) > 0 {
		return failed(CheckEffectOnce, fs)
	}
	return passed(CheckEffectOnce)
}

// secondTenantLoss says why the second tenant's effect at endpoint did not
// happen.
func secondTenantLoss(second *Round, endpoint string, firstKeys map[string]bool, idsKept bool) string {
	sent := false
	for _, q := range second.EffectRequests {
		if q.Endpoint != endpoint {
			continue
		}
		sent = true
		if firstKeys[q.IdempotencyKey] {
			return "it was sent under the first tenant's key, so the provider answered with the first tenant's effect: the key leaves the tenant out"
		}
	}
	if !sent && idsKept {
		// A sender never gives two tenants' operations one message id:
		// a handler that skips ids it has seen is right to skip this one.
		return "no request was made for it, but the second message kept the first's ids (no envelope field was found to renew): " +
			"a handler that skips messages it has handled took it for the same message; name the message's id with --envelope-field PATH"
	}
	if !sent {
		return "no request was made for it: the handler took it for the first tenant's operation (a lookup or constraint not scoped by tenant)"
	}
	return "the provider did not execute it"
}

// perTenant runs a check on each tenant's requests apart and joins the
// findings, each prefixed with its tenant.
func perTenant(r *Round, check func(*Round) Check) Check {
	var fs []finding
	var name string
	applicable := false
	detail := ""
	for d, who := range []string{"first tenant: ", "second tenant: "} {
		c := check(tenantOf(r, d+1))
		name, detail = c.Name, c.Detail
		applicable = applicable || c.Applicable
		for _, f := range c.findings {
			f.text = who + f.text
			fs = append(fs, f)
		}
	}
	switch {
	case len(fs) > 0:
		return failed(name, fs)
	case applicable:
		return passed(name)
	}
	return notApplicable(name, detail)
}
