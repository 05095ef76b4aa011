package mutant

// Safeguard is one protection the articles name, and the restart-test
// checks whose failure shows it is missing. A mutant is named after the
// safeguard it removes.
type Safeguard struct {
	Name   string
	What   string   // the safeguard, in the articles' words
	Checks []string // restart-test checks that fail when it is gone
}

// Safeguards are the articles' safeguards, in their order.
var Safeguards = []Safeguard{
	{"unique-constraint", "the primary key or unique constraint on the operation's key", []string{"effect-once", "key-stable"}},
	{"on-conflict", "on conflict do nothing: a redelivery's insert finds the row instead of failing", []string{"acked", "effect-once"}},
	{"normalize", "normalizing before keying: the same payment spelled another way is the same key", []string{"effect-once", "key-stable"}},
	{"frozen-row", "reading the frozen row back instead of using this attempt's copy of the message", []string{"payload-frozen", "effect-once"}},
	{"fingerprint", "the request fingerprint: the same key with another body is refused", []string{"mismatch-rejected"}},
	{"in-progress", "the in-progress 409: a key still running is neither run again nor taken for done", []string{"in-flight-conflict", "effect-once"}},
	{"client-scope", "keys scoped per client", []string{"client-scoped"}},
	{"tenant-scope", "keys and lookups scoped per tenant: another tenant's same operation is its own", []string{"effect-once"}},
	{"provider-key-scope", "the key sent on to the provider scoped per client, not the client's own key", []string{"client-scoped"}},
	{"complete-in-tx", "completing the key in the effect's transaction", []string{"effect-once"}},
	{"replay-response", "replaying the stored response, not a new rendering", []string{"replay-identical"}},
	{"provider-key", "passing the key on to the provider", []string{"key-present", "key-stable", "effect-once"}},
	{"persist-first", "persisting the intent before acting", []string{"key-stable", "effect-once"}},
}

// Lookup returns the safeguard a mutant removes.
func Lookup(name string) (Safeguard, bool) {
	for _, s := range Safeguards {
		if s.Name == name {
			return s, true
		}
	}
	return Safeguard{}, false
}
