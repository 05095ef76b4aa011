package clitest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// restart-test on its embedded server, with the real secret in its
// environment: a handler that asks the server for its environment, or
// reads every postgres process's /proc/PID/environ itself, finds no
// secret — and the server refuses the file reads to the run's role.
func TestEmbeddedServerGivesNoSecretToAHandler(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	if _, err := exec.LookPath("psql"); err != nil {
		t.Skip("no psql")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "seen")
	handler := `psql -X -At -c "select pg_read_binary_file('/proc/self/environ')" >>` + out + ` 2>&1;` +
		` psql -X -At -c "select pg_read_file('postmaster.pid')" >>` + out + ` 2>&1;` +
		` for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = postgres ] && tr '\0' '\n' < $p/environ >>` + out + ` 2>/dev/null; done;` +
		` echo done >>` + out
	r := invocation{
		args: []string{"restart-test", "--handler", handler, "--message", filepath.Join(repoRoot, "testdata/restart/message.json"), "--kill-at", "none"},
		env:  []string{"IDEMPOTENCY_HMAC_KEY=" + canary},
	}.run(t)
	if strings.Contains(r.stderr, "no PostgreSQL server binaries") {
		t.Skip("no PostgreSQL server binaries for the embedded server")
	}
	seen, err := os.ReadFile(out)
	if err != nil || !strings.HasSuffix(string(seen), "done\n") {
		t.Fatalf("the handler did not run (exit %d): %v\n%s", r.code, err, r.all())
	}
	if strings.Contains(string(seen), canary) || strings.Contains(r.all(), canary) {
		t.Errorf("the secret reached the handler:\n%s", seen)
	}
	if n := strings.Count(string(seen), "permission denied"); n != 2 {
		t.Errorf("%d of 2 file reads refused by the server:\n%s", n, seen)
	}
	if !strings.Contains(string(seen), "PATH=") {
		t.Errorf("no postgres process environment was read (the check saw nothing):\n%s", seen)
	}
}
