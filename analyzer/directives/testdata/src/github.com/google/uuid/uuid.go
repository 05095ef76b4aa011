// Package uuid is a minimal stub of github.com/google/uuid for tests.
package uuid

type UUID [16]byte

var NameSpaceURL UUID

func New() UUID                            { return UUID{} }
func NewString() string                    { return New().String() }
func NewRandom() (UUID, error)             { return UUID{}, nil }
func NewV7() (UUID, error)                 { return UUID{}, nil }
func NewSHA1(space UUID, data []byte) UUID { var u UUID; copy(u[:], data); return u }
func Must(uuid UUID, err error) UUID       { return uuid }
func Parse(s string) (UUID, error)         { var u UUID; copy(u[:], s); return u, nil }
func (u UUID) String() string              { return string(u[:]) }
