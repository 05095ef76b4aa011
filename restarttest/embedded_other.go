//go:build !unix

package restarttest

import (
	"context"
	"errors"
)

// ErrNoServerBinaries is returned by StartEmbedded when no PostgreSQL server
// binaries can be used.
var ErrNoServerBinaries = errors.New("the embedded PostgreSQL needs a Unix system: pass --dsn")

// Embedded is unavailable on this system.
type Embedded struct {
	Dir  string
	Port int
	User string
}

// DSN is empty on this system.
func (e *Embedded) DSN() string { return "" }

// Stop does nothing on this system.
func (e *Embedded) Stop() {}

// StartEmbedded always fails on this system.
func StartEmbedded(context.Context) (*Embedded, error) { return nil, ErrNoServerBinaries }

// FindServerBinaries always fails on this system.
func FindServerBinaries() (string, error) { return "", ErrNoServerBinaries }

// RemoveStaleEmbedded does nothing on this system.
func RemoveStaleEmbedded() {}
