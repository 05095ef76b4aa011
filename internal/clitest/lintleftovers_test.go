package clitest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeGoThatBuilds is a stand-in go that does what go list and go vet do
// to the temporary directory: a go-build directory where go puts it
// ($GOTMPDIR, else $TMPDIR), left behind when go is killed. It records
// its environment and pid, then waits.
func fakeGoThatBuilds(dir string) string {
	return `#!/bin/sh
d="${GOTMPDIR:-${TMPDIR:-/tmp}}/go-build$$"
mkdir -p "$d/b001" && touch "$d/b001/vet.cfg"
env > '` + dir + `/go-env'
echo $$ >> '` + dir + `/pids'
exec sleep 300 </dev/null >/dev/null 2>&1
`
}

// lintInTmp returns a lint invocation whose go is fakeGoThatBuilds and
// whose TMPDIR is tmp, with the HMAC secret in its environment.
func lintInTmp(t *testing.T, dir, tmp string) invocation {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fakeGoThatBuilds(dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return invocation{args: []string{"lint", "./..."}, dir: dir, env: []string{
		"PATH=" + bin + ":" + os.Getenv("PATH"), "TMPDIR=" + tmp,
		"IDEMPOTENCY_HMAC_KEY=lint-secret-4c1e", "GOFLAGS=-mod=mod",
	}}
}

// lint stopped by SIGINT or SIGTERM while go runs removes go's build
// directory and its own; one killed with SIGKILL leaves them, and the
// next lint removes them. go never sees the HMAC secret.
func TestLintLeavesNoTempDirectory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("owners are read from /proc on Linux only")
	}
	start := func(t *testing.T, inv invocation, dir string) (stop func(syscall.Signal) []int) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		c, _, _ := inv.command(ctx, t)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { _ = c.Wait(); close(done) }()
		goPids := pidsIn(t, filepath.Join(dir, "pids"), 1, done)
		return func(sig syscall.Signal) []int {
			defer cancel()
			if err := c.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("lint still runs 30s after signal %d", sig)
			}
			return append([]int{c.Process.Pid}, goPids...)
		}
	}
	left := func(tmp string) []string {
		var names []string
		entries, _ := os.ReadDir(tmp)
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	for name, sig := range map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir, tmp := t.TempDir(), t.TempDir()
			start(t, lintInTmp(t, dir, tmp), dir)(sig)
			if l := left(tmp); len(l) != 0 {
				t.Errorf("left in TMPDIR after %s: %v", name, l)
			}
			env, err := os.ReadFile(filepath.Join(dir, "go-env"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(env), "lint-secret-4c1e") || !strings.Contains(string(env), "GOFLAGS=-mod=mod") {
				t.Errorf("go's environment has the secret or lost GOFLAGS:\n%s", env)
			}
		})
	}
	t.Run("SIGKILL", func(t *testing.T) {
		t.Parallel()
		dir, tmp := t.TempDir(), t.TempDir()
		pids := start(t, lintInTmp(t, dir, tmp), dir)(syscall.SIGKILL)
		gone(t, pids[1:], nil) // go dies with lint (parent-death signal)
		if l := left(tmp); len(l) != 1 || !strings.HasPrefix(l[0], "idemcheck-lint.") {
			t.Fatalf("after SIGKILL of lint %d, TMPDIR holds %v; want its idemcheck-lint directory", pids[0], l)
		}
		// The next lint removes it (and then is stopped itself).
		os.Remove(filepath.Join(dir, "pids"))
		start(t, lintInTmp(t, dir, tmp), dir)(syscall.SIGTERM)
		if l := left(tmp); len(l) != 0 {
			t.Errorf("after one more lint, TMPDIR holds %v", l)
		}
	})
}
