// Package ids draws identifiers in ways the built-in model does not know.
package ids

import (
	"os"
	"strings"
)

// Token reads a fresh UUID from the kernel: per attempt, though nothing
// in its code says so to the analysis.
func Token() string {
	b, _ := os.ReadFile("/proc/sys/kernel/random/uuid")
	return strings.TrimSpace(string(b))
}

// Gen numbers the calls of one process.
type Gen struct{ n int }

// Next returns the next number of the sequence.
func (g *Gen) Next() int { g.n++; return g.n }

// Catalog is not a generator: its Next is the next page.
type Catalog struct{ page int }

// Next returns the next page number.
func (c *Catalog) Next() int { return c.page + 1 }

// Fill writes a fresh identifier into b.
func Fill(b []byte) {
	copy(b, Token())
}
