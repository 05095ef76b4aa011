package wholepayload

import "github.com/idemcheck/idemcheck/analyzer/ruledoc"

// Rule documents IDEM004.
var Rule = ruledoc.Rule{
	HelpURI:  "https://github.com/idemcheck/idemcheck/blob/main/docs/rules.md#idem004",
	Analyzer: "wholepayload",
	ID:       "IDEM004",
	Title:    "whole payload in an idempotency key",
	Why: `A whole struct or map is serialized (json.Marshal, fmt %v/%+v) into the key.
The key then depends on every field the type has today and every field it
will gain: add an updated_at, a trace id or a retry counter to the message and
every key changes, so redeliveries and old intents no longer match. Name the
fields that define the intent, normalize each one, and serialize only those.`,
	Fix: `Serialize an explicit field list (a literal written where the key is built, or
a struct type made only for the key) with a rules version.`,
	Bad: `b, _ := json.Marshal(order) // every field of Order, now and later
key := hmacHex(secret, b)`,
	Good: `b, _ := json.Marshal(struct {
	V        int    ` + "`json:\"v\"`" + `
	OrderID  string ` + "`json:\"order_id\"`" + `
	Cents    int64  ` + "`json:\"cents\"`" + `
}{1, order.ID, order.Cents})
key := hmacHex(secret, b)`,
}
