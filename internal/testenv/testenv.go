// Package testenv says how thoroughly idemcheck's own tests run.
//
// Three levels, so that `go test ./...` on a laptop stays quick while CI
// proves everything:
//
//   - go test -short: unit tests only; nothing that starts PostgreSQL, a
//     broker or go vet over a module.
//   - go test (the default): every behaviour at least once, with one
//     representative case of each long matrix.
//   - IDEMCHECK_TESTS=full (set by .ci/run): every kill point of every
//     matrix, and flakiness proofs repeated IDEMCHECK_REPEAT times.
package testenv

import (
	"os"
	"strconv"
	"testing"
)

// Full reports whether the long matrices run in full (IDEMCHECK_TESTS=full).
func Full() bool { return os.Getenv("IDEMCHECK_TESTS") == "full" }

// SkipUnlessFull skips a test that only widens a matrix already covered by
// a representative case, unless the run is Full.
func SkipUnlessFull(t testing.TB, what string) {
	t.Helper()
	if !Full() {
		t.Skipf("%s: runs with IDEMCHECK_TESTS=full (as in CI)", what)
	}
}

// SkipIfShort skips a test that needs real services or a go vet run under
// -short.
func SkipIfShort(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: %s", what)
	}
}

// Repeat is how many times a flakiness proof runs: IDEMCHECK_REPEAT, else
// 20 in a Full run and 3 otherwise.
func Repeat(t testing.TB) int {
	t.Helper()
	v := os.Getenv("IDEMCHECK_REPEAT")
	if v == "" {
		if Full() {
			return 20
		}
		return 3
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("IDEMCHECK_REPEAT=%q: want a positive count", v)
	}
	return n
}
