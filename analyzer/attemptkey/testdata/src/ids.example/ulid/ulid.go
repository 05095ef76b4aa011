// Package ulid is a look-alike of a ULID library with a monotonic
// generator: Make reads the clock and a package-level entropy source
// guarded by a mutex, and String encodes through a lookup table. It is
// not in the key model: that Make's result is fresh must be inferred.
package ulid

import (
	"crypto/rand"
	"io"
	"sync"
	"time"
)

type ULID [16]byte

const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

type monotonic struct {
	mu   sync.Mutex
	r    io.Reader
	ms   uint64
	last [10]byte
}

var entropy = &monotonic{r: rand.Reader}

func (m *monotonic) next(ms uint64, dst []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ms == m.ms {
		m.last[9]++
		copy(dst, m.last[:])
		return
	}
	m.ms = ms
	io.ReadFull(m.r, m.last[:])
	copy(dst, m.last[:])
}

// Make returns a ULID for the current time, monotonic within a millisecond.
func Make() ULID {
	var id ULID
	ms := uint64(time.Now().UnixMilli())
	for i := 5; i >= 0; i-- {
		id[i] = byte(ms)
		ms >>= 8
	}
	entropy.next(uint64(time.Now().UnixMilli()), id[6:])
	return id
}

// Parse decodes a ULID from its text: stable, it returns what it is given.
func Parse(s string) (ULID, error) {
	var id ULID
	copy(id[:], s)
	return id, nil
}

// String encodes the ULID in Crockford base32.
func (id ULID) String() string {
	dst := make([]byte, 26)
	for i := 0; i < 16; i++ {
		dst[i] = alphabet[id[i]&31]
	}
	return string(dst)
}
