// Package ksuid is a look-alike of a KSUID library: a timestamp and
// random payload from an injected reader that defaults to crypto/rand.
package ksuid

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"io"
	"time"
)

type KSUID [20]byte

var rander io.Reader = rand.Reader

// New returns a KSUID for now.
func New() KSUID {
	var k KSUID
	binary.BigEndian.PutUint32(k[:4], uint32(time.Now().Unix()-1400000000))
	io.ReadFull(rander, k[4:])
	return k
}

func (k KSUID) String() string { return hex.EncodeToString(k[:]) }
