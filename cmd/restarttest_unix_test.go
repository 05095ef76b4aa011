//go:build unix

package cmd

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/restarttest/pgembed"
)

// Ctrl-C during a run on the embedded server stops the handlers and removes
// the server's directory.
func TestRestartTestInterruptRemovesEmbeddedServer(t *testing.T) {
	t.Parallel()
	if _, err := pgembed.FindBinaries(); err != nil {
		t.Skip(err)
	}
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "idemcheck-pg-*"))
	marker := filepath.Join(t.TempDir(), "started")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(marker); err == nil {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	ios, _, _, _ := iostreams.Test()
	opts := &RestartTestOptions{
		IO: ios, Handler: "touch " + marker + "; sleep 300", MessageFile: filepath.Join("..", "testdata", "restart", "message.json"),
		Format: "text", MaxAttempts: 3, Timeout: time.Minute, Backoff: time.Millisecond, Rounds: 1, AckWait: time.Second, Context: ctx,
	}
	err := restartTestRun(opts)
	if exitCode(err) != ExitUsage || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v, want exit 2 interrupted", err)
	}
	// Other packages' tests may run their own embedded server meanwhile:
	// only a new directory without a live server is ours, left behind. One
	// that another test is removing right now (its server just stopped)
	// is gone a moment later; ours stays.
	var left []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		left = left[:0]
		after, _ := filepath.Glob(filepath.Join(os.TempDir(), "idemcheck-pg-*"))
		for _, dir := range after {
			if !slices.Contains(before, dir) && !serverAlive(dir) {
				left = append(left, dir)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, dir := range left {
		t.Errorf("embedded server directory %s left behind", dir)
	}
}

func serverAlive(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid"))
	if err != nil {
		return true // still being set up
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
	return err == nil && syscall.Kill(pid, 0) == nil
}
