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
	ctx, cancel := cancelOnceExists(marker)
	defer cancel()
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

// A run stopped after some rounds finished reports those rounds, under a
// verdict that claims nothing of the rounds not run, and exits as
// interrupted: the finished work is not lost.
func TestRestartTestInterruptReportsFinishedRounds(t *testing.T) {
	t.Parallel()
	db := testDatabaseArgs(t)
	dir := t.TempDir()
	first, hung := filepath.Join(dir, "first"), filepath.Join(dir, "hung")
	// The first attempt (the clean round) is the correct sh handler; every
	// later one hangs, so the run is stopped inside round 2.
	handler := "if [ -e " + first + " ]; then touch " + hung + "; sleep 300; else touch " + first +
		"; exec sh " + filepath.Join("..", "testdata", "restart", "sh", "intent.sh") + "; fi"
	for _, format := range []string{"text", "json"} {
		os.Remove(first)
		os.Remove(hung)
		ctx, cancel := cancelOnceExists(hung)
		ios, _, stdout, _ := iostreams.Test()
		opts := &RestartTestOptions{
			IO: ios, Handler: handler, DSN: db[1], SetupFile: filepath.Join("..", "testdata", "restart", "sh", "setup.sql"),
			MessageFile: filepath.Join("..", "testdata", "restart", "message.json"), KillAt: []string{"none", "response"},
			Format: format, MaxAttempts: 3, Timeout: time.Minute, Backoff: time.Millisecond, Rounds: 1, AckWait: time.Second, Context: ctx,
		}
		err := restartTestRun(opts)
		cancel()
		if exitCode(err) != ExitUsage || !strings.Contains(err.Error(), "interrupted") {
			t.Fatalf("%s: err = %v, want exit 2 interrupted", format, err)
		}
		out := stdout.String()
		want := []string{"round 1  clean (no kill)  PASS", "\nINTERRUPTED after 1 of 2 planned rounds: every finished round passed; the rounds not run tested nothing\n"}
		if format == "json" {
			want = []string{`"verdict": "interrupted"`, `"kill_point": "none"`, `"rounds_total": 1`}
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the finished round is not reported under an interrupted verdict (want %q):\n%s", format, w, out)
			}
		}
		if strings.Contains(out, "\nPASS") || strings.Contains(out, `"verdict": "pass"`) {
			t.Errorf("%s: an interrupted run claims a pass:\n%s", format, out)
		}
	}
}

// cancelOnceExists is a context cancelled once path exists: a handler
// touches it where the test wants the run stopped, as Ctrl-C would.
func cancelOnceExists(path string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(path); err == nil {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return ctx, cancel
}
