// Package input reads the files a user names (payloads, schemas, messages,
// SQL, configuration, key files) with a size cap: a path to /dev/zero, a
// FIFO that never ends or a log file given by mistake must end in one line
// saying so, not in memory running out.
package input

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// DefaultLimit is the size cap of every file input unless raised
// (--max-input-size): far above any payload, schema, message or migration
// file, and low enough that reading up to it stays well within 256 MB.
const DefaultLimit = 32 << 20

// TooLargeError is a file or stream above the cap.
type TooLargeError struct {
	Name  string // the path, or "stdin"
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s; raise --max-input-size if it is meant to be that big", e.Name, FormatSize(e.Limit))
}

// ReadFile reads the file at path, refusing it when it holds more than
// limit bytes. A regular file's size is checked before reading; anything
// else (a device, a pipe) is read up to the cap and no further. Errors
// read "PATH: no such file or directory", without Go's "open" prefix.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		if fi.IsDir() {
			return nil, fmt.Errorf("%s is a directory, not a file", path)
		}
		if fi.Mode().IsRegular() && fi.Size() > limit {
			return nil, &TooLargeError{Name: path, Limit: limit}
		}
	}
	data, err := Read(f, path, limit)
	return data, unwrapPathError(err)
}

// Read reads r to its end, refusing it when it holds more than limit
// bytes; name says what r is in the error.
func Read(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Name: name, Limit: limit}
	}
	return data, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// Size is a byte count given as a flag value: 1048576, 512KiB, 64MiB, 1GiB
// (K, M, G and KB, MB, GB mean the same binary units).
type Size int64

// units are the accepted suffixes, longest first so "MiB" wins over "B".
var units = []struct {
	suffix string
	factor int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1},
}

// Set parses s.
func (z *Size) Set(s string) error {
	t := strings.ToLower(strings.TrimSpace(s))
	factor := int64(1)
	for _, u := range units {
		if num, ok := strings.CutSuffix(t, u.suffix); ok {
			t, factor = strings.TrimSpace(num), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 1 || n > (1<<50)/factor {
		return errors.New("want a size such as 64MiB")
	}
	*z = Size(n * factor)
	return nil
}

func (z *Size) String() string { return FormatSize(int64(*z)) }

// Type names the value in flag errors and help.
func (z *Size) Type() string { return "size" }

// FormatSize writes n in the largest binary unit that divides it.
func FormatSize(n int64) string {
	for _, u := range []struct {
		name   string
		factor int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.factor && n%u.factor == 0 {
			return strconv.FormatInt(n/u.factor, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
