// Package xid is a minimal stub of github.com/rs/xid for tests.
package xid

type ID [12]byte

func New() ID                { return ID{} }
func (id ID) String() string { return string(id[:]) }
