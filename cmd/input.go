package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// readInput reads the file a flag names, or stdin when the name is "-"
// (--payload, --message). A missing or unreadable file reads
// "NAME: no such file or directory", without Go's "open" prefix.
func readInput(stdin io.Reader, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	b, err := os.ReadFile(name)
	return b, unwrapPathError(err)
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}
