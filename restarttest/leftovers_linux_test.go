//go:build linux

package restarttest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

const killedRunReadyEnv = "IDEMCHECK_KILLED_RUN_READY"

// TestKilledRunHelper is the run that TestNextRunRemovesWhatAKilledRunLeft
// kills: it only runs in the child process.
func TestKilledRunHelper(t *testing.T) {
	ready := os.Getenv(killedRunReadyEnv)
	if ready == "" {
		t.Skip("the run killed by TestNextRunRemovesWhatAKilledRunLeft")
	}
	_, _ = Run(context.Background(), Config{
		Handler:    "touch " + ready + "; sleep 300",
		Message:    []byte(`{}`),
		Setup:      "create table t (id int);",
		KillPoints: []KillPoint{{Kind: KillNone}},
		DSN:        dsn(t),
	})
}

// A run killed with SIGKILL leaves its schema and its message file; the
// next run removes them, and leaves a live run's alone.
func TestNextRunRemovesWhatAKilledRunLeft(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(t.TempDir(), "ready")
	child := exec.Command(exe, "-test.run=^TestKilledRunHelper$")
	child.Env = append(os.Environ(), killedRunReadyEnv+"="+ready, "IDEMCHECK_TEST_DATABASE="+dsn(t))
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child run never started its handler")
		}
	}
	pid := strconv.Itoa(child.Process.Pid)
	leftovers := func() (schemas int, files []string) {
		c, err := pgx.Connect(context.Background(), dsn(t))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		err = c.QueryRow(context.Background(), `select count(*) from pg_namespace
			where nspname like 'idemcheck\_rt\_%' and obj_description(oid, 'pg_namespace') like $1`,
			"% owner ."+pid+".%").Scan(&schemas)
		if err != nil {
			t.Fatal(err)
		}
		files, _ = filepath.Glob(filepath.Join(os.TempDir(), messageFilePrefix+"."+pid+".*-*"))
		return schemas, files
	}
	if s, f := leftovers(); s != 1 || len(f) != 1 {
		t.Fatalf("the live child run has %d schemas and message files %v, want 1 and 1", s, f)
	}
	// A live run's leftovers are not touched by another run.
	// Nothing to judge (no effect request), but the sweep has run.
	runNoVerdict(t, Config{Handler: "exit 0", Message: []byte(`{}`), KillPoints: []KillPoint{{Kind: KillNone}}, DSN: dsn(t)})
	if s, f := leftovers(); s != 1 || len(f) != 1 {
		t.Fatalf("another run removed a live run's schema or message file: %d, %v", s, f)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	runNoVerdict(t, Config{Handler: "exit 0", Message: []byte(`{}`), KillPoints: []KillPoint{{Kind: KillNone}}, DSN: dsn(t)})
	if s, f := leftovers(); s != 0 || len(f) != 0 {
		t.Errorf("after the next run, the killed run still has %d schemas and message files %v", s, f)
	}
}
