package cmd

import (
	"fmt"

	"io"

	"github.com/spf13/pflag"

	"github.com/idemcheck/idemcheck/derive"
	"github.com/idemcheck/idemcheck/internal/input"
)

// maxInputFlag caps every file a command reads (see package input).
const maxInputFlag = "max-input-size"

// addMaxInputFlag adds --max-input-size to a command's flags.
func addMaxInputFlag(f *pflag.FlagSet, size *input.Size) {
	*size = input.DefaultLimit
	f.Var(size, maxInputFlag, "refuse a file input (or stdin read whole) larger than `SIZE`, e.g. 64MiB")
}

// readInput reads the file a flag names, or stdin when the name is "-"
// (--payload, --message), refusing more than limit bytes. A missing or
// unreadable file reads "NAME: no such file or directory", without Go's
// "open" prefix.
func readInput(stdin io.Reader, name string, limit input.Size) ([]byte, error) {
	limit = orDefault(limit)
	if name == "-" {
		return input.Read(stdin, "stdin", int64(limit))
	}
	return input.ReadFile(name, int64(limit))
}

// readFile reads a file a flag names, refusing more than limit bytes.
func readFile(name string, limit input.Size) ([]byte, error) {
	return input.ReadFile(name, int64(orDefault(limit)))
}

// orDefault is the default cap for options built without the flag.
func orDefault(limit input.Size) input.Size {
	if limit <= 0 {
		return input.DefaultLimit
	}
	return limit
}

// loadSchema reads and validates a YAML schema file (--schema).
func loadSchema(path string, limit input.Size) (*derive.Schema, error) {
	data, err := readFile(path, limit)
	if err != nil {
		return nil, err
	}
	s, err := derive.ParseSchema(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}
