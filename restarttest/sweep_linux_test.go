//go:build linux

package restarttest

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// A run killed with SIGKILL cannot clean up: its handlers' children outlive
// the shell's parent-death signal. The next run kills what carries a marker
// of a run whose owner is gone, and leaves live runs' processes alone.
func TestNextRunSweepsOrphansOfAKilledRun(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	self := ownerSuffix() // ".PID.START"
	if self == "" {
		t.Skip("no /proc")
	}
	start := func(marker string) *exec.Cmd {
		c := exec.Command("sleep", "300")
		c.Env = append(os.Environ(), runMarkerEnv+"="+marker)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
		return c
	}
	orphan := start("feedface." + strconv.Itoa(dead.Process.Pid) + ".1")
	reused := start("feedface." + strconv.Itoa(os.Getpid()) + ".1") // our PID, another start time
	live := start("feedface" + self)
	legacy := start("feedface")

	// Nothing to judge (no effect request), but the sweep has run.
	runNoVerdict(t, Config{Handler: "cat >/dev/null", Message: []byte(`{}`), KillPoints: []KillPoint{{Kind: KillNone}}, DSN: dsn(t)})

	exited := func(c *exec.Cmd) bool {
		done := make(chan struct{})
		go func() { _ = c.Wait(); close(done) }()
		select {
		case <-done:
			return true
		case <-time.After(2 * time.Second):
			return false
		}
	}
	if !exited(orphan) || !exited(reused) {
		t.Error("a process of a run whose owner is gone survived the next run")
	}
	for name, c := range map[string]*exec.Cmd{"live": live, "legacy": legacy} {
		if err := c.Process.Signal(syscall.Signal(0)); err != nil {
			t.Errorf("the %s run's process was killed: %v", name, err)
		}
	}
}
