package baredigest

import "github.com/idemcheck/idemcheck/analyzer/ruledoc"

// Rule documents IDEM005.
var Rule = ruledoc.Rule{
	HelpURI:  "https://github.com/idemcheck/idemcheck/blob/main/docs/rules.md#idem005",
	Analyzer: "baredigest",
	ID:       "IDEM005",
	Title:    "bare digest as an idempotency key",
	Why: `The key is a plain sha256/sha1/md5/fnv (or a name-based UUID) of fields anyone
can guess: an order id, a phone number, an amount. Whoever reproduces the hash
can enumerate valid keys, replay or pre-empt them, and learn which customers
paid what. A keyed MAC closes that: HMAC-SHA256 with a secret read from the
environment or a file, over a canonical encoding of an explicit field list
with a rules version.`,
	Fix: `Use HMAC-SHA256 with a secret from the environment or a file over a canonical
encoding of an explicit field list.`,
	Bad: `sum := sha256.Sum256([]byte(order.ID + ":" + order.Phone))
key := hex.EncodeToString(sum[:])`,
	Good: `mac := hmac.New(sha256.New, secret) // secret from IDEMPOTENCY_HMAC_KEY
mac.Write(canonicalJSON(fields))
key := hex.EncodeToString(mac.Sum(nil))`,
}
