// Package xid is a look-alike of an xid library: time, machine id and a
// process-wide counter incremented atomically.
package xid

import (
	"encoding/binary"
	"encoding/hex"
	"sync/atomic"
	"time"
)

type ID [12]byte

var objectIDCounter uint32

var machineID = [3]byte{1, 2, 3}

// New returns a new unique id.
func New() ID {
	var id ID
	binary.BigEndian.PutUint32(id[:], uint32(time.Now().Unix()))
	copy(id[4:7], machineID[:])
	i := atomic.AddUint32(&objectIDCounter, 1)
	id[9] = byte(i >> 16)
	id[10] = byte(i >> 8)
	id[11] = byte(i)
	return id
}

func (id ID) String() string { return hex.EncodeToString(id[:]) }
