//go:build !cgo

package frontend

import "github.com/idemcheck/idemcheck/analyzer/polyglot/ir"

// Available reports whether this build has the Python and TypeScript
// front ends: it was built without cgo, so it does not.
func Available() bool { return false }

// Parse returns ErrNoCgo: this build has no tree-sitter parsers.
func Parse(path string, src []byte) (*ir.File, error) { return nil, ErrNoCgo }
