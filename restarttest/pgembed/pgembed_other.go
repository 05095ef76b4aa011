//go:build !unix

package pgembed

import (
	"context"
	"errors"
)

// ErrNoBinaries is returned by Start when no PostgreSQL server
// binaries can be used.
var ErrNoBinaries = errors.New("the embedded PostgreSQL needs a Unix system: pass --dsn")

// Server is unavailable on this system.
type Server struct {
	Dir  string
	Port int
	User string
}

// DSN is empty on this system.
func (e *Server) DSN() string { return "" }

// Stop does nothing on this system.
func (e *Server) Stop() {}

// Start always fails on this system.
func Start(context.Context) (*Server, error) { return nil, ErrNoBinaries }

// FindBinaries always fails on this system.
func FindBinaries() (string, error) { return "", ErrNoBinaries }

// RemoveStale does nothing on this system.
func RemoveStale() {}
