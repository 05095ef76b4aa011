// Package english writes the small pieces of English the reports share.
package english

import (
	"fmt"
	"strings"
)

// Plural is "1 noun" or "n nouns" ("n processes" for a noun ending in s).
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
