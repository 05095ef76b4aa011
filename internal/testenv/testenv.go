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
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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

// The environment the test process started with, and the go command in it
// (package initialization runs before any test's t.Setenv).
var (
	startEnv = os.Environ()
	startGo  = lookGo()
)

func lookGo() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

// The idemcheck executable the tests run: one build per test process.
var idemcheck struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Idemcheck returns the path of an idemcheck executable built from this
// module, the same for every test package of a go test run.
//
// Why one executable: lint names its go vet tool by the executable's
// contents, and go vet caches every package's result under that name. With
// a test binary of their own as the tool (they differ per package), cmd and
// the doc scripts each revisited the whole standard library. go run keeps
// this executable in go's cache (-exec cp copies it out), so it is linked
// once per change of the sources. (Not -trimpath: on a cold build cache
// that would compile every dependency a second time.)
func Idemcheck(t testing.TB) string {
	t.Helper()
	idemcheck.once.Do(func() {
		gomod := exec.Command(startGo, "env", "GOMOD")
		gomod.Env = startEnv
		root, err := gomod.Output()
		if err != nil || strings.TrimSpace(string(root)) == "" {
			idemcheck.err = fmt.Errorf("cannot find the module root: %v", err)
			return
		}
		if idemcheck.dir, err = os.MkdirTemp("", "idemcheck-testbin-"); err != nil {
			idemcheck.err = err
			return
		}
		path := filepath.Join(idemcheck.dir, "idemcheck")
		build := exec.Command(startGo, "run", "-exec", "cp", ".", path)
		build.Dir = filepath.Dir(strings.TrimSpace(string(root)))
		build.Env = startEnv
		if out, err := build.CombinedOutput(); err != nil {
			idemcheck.err = fmt.Errorf("build idemcheck: %v\n%s", err, out)
			return
		}
		idemcheck.path = path
	})
	if idemcheck.err != nil {
		t.Fatal(idemcheck.err)
	}
	return idemcheck.path
}

// RemoveIdemcheck removes the executable Idemcheck built, if any. A
// TestMain calls it after the tests.
func RemoveIdemcheck() {
	if idemcheck.dir != "" {
		os.RemoveAll(idemcheck.dir)
	}
}

// BuildProgram links the main package pkg ("./testdata/restart/intent"),
// relative to the module root dir, into the executable out. cmd and
// restarttest build the example handlers through it, with the same flags,
// so a handler one package linked is a cache hit for the other.
//
// `go run -exec cp` copies the executable out of go's build cache: go run
// caches what it links (go build -o does not). -s -w: no symbol table or
// DWARF, a third less link time for each of the twenty handlers on a fresh
// clone; their panics still show file and line.
//
// It runs go in the environment the test process started with: builds may
// run in the background while a serial test changes the environment (an
// empty PATH, to show there is no server binary).
func BuildProgram(dir, pkg, out string) error {
	return BuildProgramOverlay(dir, pkg, out, "")
}

// BuildProgramOverlay is BuildProgram with go's -overlay file (files
// replaced for the build, as a mutant replaces its handler's), when set.
func BuildProgramOverlay(dir, pkg, out, overlay string) error {
	args := []string{"run", "-ldflags=-s -w"}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.Command(startGo, append(args, "-exec", "cp", pkg, out)...)
	cmd.Dir = dir
	cmd.Env = startEnv
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build %s: %v\n%s", pkg, err, b)
	}
	return nil
}
