package clitest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/internal/testenv"
)

// repoRoot is the module root, where testdata and examples live.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveIdemcheck()
	os.Exit(code)
}

// invocation is one run of the binary.
type invocation struct {
	args      []string
	env       []string // added to a clean environment (PATH, HOME, TMPDIR)
	dir       string   // working directory; default the module root
	stdin     string
	stdinFile string   // a file to read stdin from instead, e.g. /dev/zero
	stdout    *os.File // default: a buffer
}

type result struct {
	code           int
	stdout, stderr string
}

func (r result) all() string { return r.stdout + r.stderr }

// baseEnv is the environment every run starts from: nothing of the test's
// own (no IDEMPOTENCY_HMAC_KEY, DATABASE_URL or PG* leaking in).
func baseEnv() []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "NO_COLOR=1"}
	for _, name := range []string{"TMPDIR", "GOCACHE", "GOPATH", "GOMODCACHE", "GOFLAGS", "GOPROXY"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	return env
}

func (inv invocation) command(ctx context.Context, t testing.TB) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	c := exec.CommandContext(ctx, testenv.Idemcheck(t), inv.args...)
	c.Env = append(baseEnv(), inv.env...)
	c.Dir = inv.dir
	if c.Dir == "" {
		c.Dir = repoRoot
	}
	c.Stdin = strings.NewReader(inv.stdin)
	if inv.stdinFile != "" {
		f, err := os.Open(inv.stdinFile)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		c.Stdin = f
	}
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if inv.stdout != nil {
		c.Stdout = inv.stdout
	}
	return c, &stdout, &stderr
}

func (inv invocation) run(t *testing.T) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, stdout, stderr := inv.command(ctx, t)
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("idemcheck %s: %v", strings.Join(inv.args, " "), err)
	}
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// testDatabase is the real PostgreSQL of the tests, or skips.
func testDatabase(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("IDEMCHECK_TEST_DATABASE")
	if dsn == "" {
		t.Skip("IDEMCHECK_TEST_DATABASE is not set: restart-test needs a real PostgreSQL")
	}
	return dsn
}

// proc is one line of /proc/PID/stat.
type proc struct {
	pid, pgrp int
	state     string
	name      string
}

// liveProcesses returns the processes, not zombies, whose pid is in pids or
// whose process group is in pgids, read from /proc as TestNoOrphans does.
func liveProcesses(t *testing.T, pids, pgids []int) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc: cannot look for orphans")
	}
	var live []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, ok := readStat(pid)
		if !ok || p.state == "Z" || p.state == "X" {
			continue
		}
		if contains(pids, pid) || contains(pgids, p.pgrp) {
			live = append(live, fmt.Sprintf("pid %d pgrp %d (%s)", pid, p.pgrp, p.name))
		}
	}
	return live
}

func readStat(pid int) (proc, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
	if open < 0 || end < open {
		return proc{}, false
	}
	f := strings.Fields(string(stat[end+1:]))
	if len(f) < 3 {
		return proc{}, false
	}
	pgrp, _ := strconv.Atoi(f[2])
	return proc{pid: pid, pgrp: pgrp, state: f[0], name: string(stat[open+1 : end])}, true
}

func contains(list []int, n int) bool {
	for _, v := range list {
		if v == n {
			return true
		}
	}
	return false
}

// pidsIn waits until file lists at least want pids, one a line.
func pidsIn(t *testing.T, file string, want int, done <-chan struct{}) []int {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		data, _ := os.ReadFile(file)
		var pids []int
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				pids = append(pids, n)
			}
		}
		if len(pids) >= want {
			return pids
		}
		select {
		case <-deadline:
			t.Fatalf("%s lists %d of %d pids after 60s", file, len(pids), want)
		case <-done:
			t.Fatalf("idemcheck exited before its children wrote %d pids (got %d)", want, len(pids))
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// gone fails unless no process in pids or in the process groups pgids is
// left, giving killed processes a moment to be reaped by init.
func gone(t *testing.T, pids, pgids []int) {
	t.Helper()
	var live []string
	for range 50 {
		if live = liveProcesses(t, pids, pgids); len(live) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("left running:\n%s", strings.Join(live, "\n"))
}

var _ = syscall.SIGTERM
