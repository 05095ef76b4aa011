// Package prefixed holds typed-id helpers as services write them: a
// prefix and a monotonic ULID, and a process-wide sequence.
package prefixed

import (
	"strconv"
	"sync/atomic"

	"ids.example/ulid"
)

// NewWithPrefix returns "p_<ulid>".
func NewWithPrefix(p string) string { return p + "_" + ulid.Make().String() }

var seq int64

// Next returns the next number of a process-wide counter.
func Next() string {
	seq++
	return "op-" + strconv.FormatInt(seq, 10)
}

var hits atomic.Int64

// NextAtomic is Next with an atomic counter.
func NextAtomic() string { return "op-" + strconv.FormatInt(hits.Add(1), 10) }

// WithPrefix joins a prefix and an id it is given: stable.
func WithPrefix(p, id string) string { return p + "_" + id }
