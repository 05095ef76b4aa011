package clitest

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// --max-attempts 1000000000 with a handler that always fails ends: the
// round is bounded by --round-timeout, and ends in one line, exit 2.
func TestHugeMaxAttemptsEnds(t *testing.T) {
	dsn := testDatabase(t)
	start := time.Now()
	r := invocation{args: []string{"restart-test", "--handler", "exit 1", "--dsn", dsn,
		"--message", filepath.Join(repoRoot, "testdata/restart/message.json"),
		"--max-attempts", "1000000000", "--backoff", "1ms", "--round-timeout", "3s"}}.run(t)
	took := time.Since(start)
	line := strings.TrimSpace(r.stderr)
	if r.code != 2 || strings.Contains(line, "\n") || !strings.Contains(line, "did not settle within 3s (--round-timeout)") {
		t.Errorf("exit %d, stderr %q: want exit 2 and one line naming --round-timeout", r.code, r.stderr)
	}
	if took > 60*time.Second {
		t.Errorf("took %v for a 3s round timeout", took)
	}
}
