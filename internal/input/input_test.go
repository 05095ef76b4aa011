package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFileCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(path, 5); err != nil || string(data) != "12345" {
		t.Fatalf("at the cap: %q %v", data, err)
	}
	var tooLarge *TooLargeError
	if _, err := ReadFile(path, 4); !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), "--max-input-size") {
		t.Fatalf("above the cap: %v", err)
	}
	if _, err := ReadFile("/dev/zero", 1<<20); !errors.As(err, &tooLarge) || err.Error() != "/dev/zero is larger than 1MiB; raise --max-input-size if it is meant to be that big" {
		t.Fatalf("/dev/zero: %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "nope"), 1); err == nil || strings.HasPrefix(err.Error(), "open ") {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := ReadFile(t.TempDir(), 1); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("directory: %v", err)
	}
}

func TestSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "512KiB": 512 << 10, "64MiB": 64 << 20, "2g": 2 << 30, "10 MB": 10 << 20, "7b": 7} {
		var z Size
		if err := z.Set(in); err != nil || int64(z) != want {
			t.Errorf("%q: %d %v, want %d", in, z, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "1.5MiB", "MiB", "1TiB", "99999999999G"} {
		var z Size
		if err := z.Set(in); err == nil {
			t.Errorf("%q accepted as %d", in, z)
		}
	}
	if s := Size(32 << 20); s.String() != "32MiB" {
		t.Errorf("%s", s.String())
	}
}
