// Package ruledoc is a temporary stand-in until lint-core's ruledoc lands.
package ruledoc

// Rule documents one lint rule.
type Rule struct {
	ID, Title, Why, Bad, Good string
}
