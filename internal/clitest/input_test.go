package clitest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// maxRSS is the memory a refused input may cost at most.
const maxRSS = 256 << 20

// fileFlag is one file input of one command: args hold the flags, with
// FILE where the file goes; stdin means the input is read from stdin
// (FILE is "-" or the command reads stdin itself).
type fileFlag struct {
	name  string
	args  []string
	stdin bool
}

// fileFlags are every file input of every command.
func fileFlags() []fileFlag {
	derive := []string{"derive", "--tenant", "acme", "--action", "pix.cobranca"}
	exec := []string{"normcheck", "--type", "cpf", "--exec", "cat", "--field", "chave_pix_destino"}
	// A database that is not there: a run past its inputs ends at once.
	restart := []string{"restart-test", "--handler", "true", "--dsn", "postgres://postgres@127.0.0.1:1/none"}
	message := filepath.Join(repoRoot, "testdata/restart/message.json")
	return []fileFlag{
		{name: "derive --payload", args: append(derive, "--payload", "FILE")},
		{name: "derive --payload -", args: append(derive, "--payload", "-"), stdin: true},
		{name: "derive --schema", args: append(derive, "--set", "a=b", "--schema", "FILE")},
		{name: "derive --hmac-key-file", args: append(derive, "--set", "a=b", "--hmac-key-file", "FILE")},
		{name: "derive --batch", args: []string{"derive", "--batch"}, stdin: true},
		{name: "normcheck --schema", args: []string{"normcheck", "--type", "cpf", "--field", "x", "--schema", "FILE", "111.444.777-35"}},
		{name: "normcheck --payload", args: append(exec, "--payload", "FILE", "111.444.777-35")},
		{name: "normcheck --payload -", args: append(exec, "--payload", "-", "111.444.777-35"), stdin: true},
		{name: "restart-test --message", args: append(restart, "--message", "FILE")},
		{name: "restart-test --message -", args: append(restart, "--message", "-"), stdin: true},
		{name: "restart-test --setup", args: append(restart, "--message", message, "--setup", "FILE")},
		{name: "restart-test --model-replies", args: append(restart, "--message", message, "--model-replies", "FILE")},
		{name: "lint --config", args: []string{"lint", "--config", "FILE", "./..."}},
		{name: "lint --baseline", args: []string{"lint", "--baseline", "FILE", "./..."}},
	}
}

// run runs f with file in place of FILE (or on stdin) and returns the
// result and the child's peak RSS in bytes.
func (f fileFlag) run(t *testing.T, file string, extra ...string) (result, int64) {
	t.Helper()
	inv := invocation{env: []string{"IDEMPOTENCY_HMAC_KEY=clitest-secret"}, dir: tinyModule(t)}
	for _, a := range f.args {
		if a == "FILE" {
			a = file
		}
		inv.args = append(inv.args, a)
	}
	inv.args = append(inv.args, extra...)
	if f.stdin {
		inv.stdinFile = file
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, stdout, stderr := inv.command(ctx, t)
	err := c.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s: %v", f.name, err)
	}
	rss := int64(0)
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss) << 10 // KiB on Linux
	}
	return result{code: c.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}, rss
}

// tinyModule is a module without imports, for lint to run in.
func tinyModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/tiny\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// refusedInOneLine fails unless r is exit 2 with one line on stderr
// naming the cap, and nothing on stdout.
func refusedInOneLine(t *testing.T, r result, want string) {
	t.Helper()
	line := strings.TrimSpace(r.stderr)
	if r.code != 2 || strings.Contains(line, "\n") || !strings.Contains(line, want) || !strings.Contains(line, "--max-input-size") || r.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q: want exit 2 and one line saying %q and how to raise the cap", r.code, r.stdout, r.stderr, want)
	}
}

// /dev/zero on every file flag ends in one line and exit 2, having read
// no more than the cap: peak RSS stays under 256 MB.
func TestDevZeroOnEveryFileFlag(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from getrusage as Linux reports it")
	}
	for _, f := range fileFlags() {
		t.Run(f.name, func(t *testing.T) {
			r, rss := f.run(t, "/dev/zero")
			t.Logf("%s /dev/zero: exit %d, peak RSS %.1f MB", f.name, r.code, float64(rss)/1e6)
			refusedInOneLine(t, r, "larger than 32MiB")
			if rss == 0 || rss > maxRSS {
				t.Errorf("peak RSS %d bytes, want at most %d", rss, maxRSS)
			}
		})
	}
}

// A regular file above the cap is refused by its size, before it is read;
// --max-input-size raises the cap.
func TestFileAboveTheCap(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(big, []byte(strings.Repeat(" ", 2049)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range fileFlags() {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			r, _ := f.run(t, big, "--max-input-size", "2KiB")
			refusedInOneLine(t, r, "larger than 2KiB")
			// Raised, the same file is read: whatever the command says of
			// 2049 spaces, it is not about the size.
			r, _ = f.run(t, big, "--max-input-size", "4KiB")
			if strings.Contains(r.stderr, "larger than") {
				t.Errorf("cap raised to 4KiB: %s", r.stderr)
			}
		})
	}
}

// A database error quoting a 10 MB value of the setup is a short line:
// PostgreSQL's text is cut with its length said.
func TestHugeSetupValueShortError(t *testing.T) {
	dsn := testDatabase(t)
	setup := filepath.Join(t.TempDir(), "setup.sql")
	huge := strings.Repeat("x", 10<<20)
	if err := os.WriteFile(setup, []byte("select '"+huge+"'::int;\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	effect := "select '" + strings.Repeat("y", 100<<10) + "'::int"
	for name, args := range map[string][]string{
		"setup":      {"--setup", setup, "--max-input-size", "64MiB"},
		"effect-sql": {"--effect-sql", effect},
	} {
		t.Run(name, func(t *testing.T) {
			r := invocation{args: append([]string{"restart-test", "--handler", "true", "--dsn", dsn, "--kill-at", "none",
				"--message", filepath.Join(repoRoot, "testdata/restart/message.json")}, args...)}.run(t)
			line := strings.TrimSpace(r.stderr)
			if r.code != 2 || strings.Contains(line, "\n") || len(line) > 1000 || !strings.Contains(line, "bytes)") {
				t.Errorf("exit %d, %d bytes of stderr: want exit 2 and one short line saying the length\n%.600s", r.code, len(r.stderr), r.stderr)
			}
		})
	}
}
