// Package pgconn is a minimal stub for tests.
package pgconn

type CommandTag struct{ s string }
