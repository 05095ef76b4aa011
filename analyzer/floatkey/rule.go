package floatkey

import "github.com/idemcheck/idemcheck/analyzer/ruledoc"

// Rule documents IDEM003.
var Rule = ruledoc.Rule{
	HelpURI:  "https://github.com/idemcheck/idemcheck/blob/main/docs/rules.md#idem003",
	Analyzer: "floatkey",
	ID:       "IDEM003",
	Title:    "float in an idempotency key",
	Why: `A float32/float64 value reaches key derivation. Floats do not hold money
exactly: 0.1 + 0.2 is 0.30000000000000004, and two attempts that add the same
items in a different order, or format with a different precision, produce
different digits and therefore a different key. The provider sees a new key
and charges again. Carry money as integer cents (int64) from the edge of the
system and put the integer in the key.`,
	Fix: `Carry money as integer cents (int64) from the edge of the system and put the
integer in the key; if a float arrives, round it to cents once, before the key.`,
	Bad:  `key := fmt.Sprintf("%s:%.2f", order.ID, order.Total) // Total float64`,
	Good: `key := fmt.Sprintf("%s:%d", order.ID, order.TotalCents) // int64 cents`,
}
