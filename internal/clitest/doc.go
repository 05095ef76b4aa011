// Package clitest runs the built idemcheck binary as users and CI do, for
// what only a real process shows: signals stop everything a subcommand
// started, a failed write to stdout is exit 2, and a secret given by
// mistake never appears in any output. It has tests only.
package clitest
