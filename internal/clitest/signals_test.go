package clitest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// escapingScript starts, besides itself, a background job, a child that
// left the process group with setsid and one that also lost every
// environment marker with env -i, writes their pids to pidFile and waits.
func escapingScript(pidFile string, then string) string {
	q := "'" + pidFile + "'"
	return `#!/bin/sh
echo $$ >> ` + q + `
setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! >> ` + q + `
env -i /usr/bin/setsid /bin/sleep 300 </dev/null >/dev/null 2>&1 & echo $! >> ` + q + `
sleep 300 </dev/null >/dev/null 2>&1 & echo $! >> ` + q + `
` + then + "\n"
}

const spawned = 4 // pids escapingScript writes

func requireLinuxSetsid(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("escapees are found through /proc on Linux only")
	}
	for _, p := range []string{"/usr/bin/setsid", "/bin/sleep"} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("no %s", p)
		}
	}
}

// subcommandsThatStartProcesses returns, for each, an invocation whose
// children run escapingScript and never finish on their own.
func subcommandsThatStartProcesses(t *testing.T, dir, pidFile string) map[string]invocation {
	script := filepath.Join(dir, "escape.sh")
	if err := os.WriteFile(script, []byte(escapingScript(pidFile, "cat >/dev/null; wait")), 0o755); err != nil {
		t.Fatal(err)
	}
	// lint runs `go vet`, which runs a vet tool per package: a stand-in go
	// on PATH gives the same process tree without depending on how fast
	// the real one is.
	fakeGo := filepath.Join(dir, "bin", "go")
	if err := os.MkdirAll(filepath.Dir(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fakeGo, []byte(escapingScript(pidFile, "wait")), 0o755); err != nil {
		t.Fatal(err)
	}
	invs := map[string]invocation{
		"lint": {args: []string{"lint", "./..."}, dir: dir,
			env: []string{"PATH=" + filepath.Dir(fakeGo) + ":" + os.Getenv("PATH")}},
		"normcheck --exec": {args: []string{"normcheck", "--type", "cpf", "--exec", "sh " + script,
			"--payload", filepath.Join(repoRoot, "testdata/normcheck/payload.json"), "--field", "chave_pix_destino", "111.444.777-35"}},
	}
	if dsn := os.Getenv("IDEMCHECK_TEST_DATABASE"); dsn != "" {
		invs["restart-test"] = invocation{args: []string{"restart-test", "--handler", "sh " + script,
			"--message", filepath.Join(repoRoot, "testdata/restart/message.json"), "--dsn", dsn, "--kill-at", "none"}}
	}
	return invs
}

// Each stop signal, sent to each subcommand that starts processes while
// its children (in its process group, escaped with setsid, escaped with
// env -i setsid) run: idemcheck exits 128+N with one line saying what it
// stopped, and none of the children is left.
func TestSignalsStopEverythingStarted(t *testing.T) {
	requireLinuxSetsid(t)
	signals := map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM, "SIGHUP": syscall.SIGHUP, "SIGQUIT": syscall.SIGQUIT}
	if os.Getenv("IDEMCHECK_TEST_DATABASE") == "" {
		t.Log("IDEMCHECK_TEST_DATABASE is not set: restart-test is not signalled")
	}
	for _, sub := range []string{"lint", "normcheck --exec", "restart-test"} {
		for name, sig := range signals {
			if sig == syscall.SIGQUIT && sub != "restart-test" {
				continue // Ctrl-\ keeps Go's default (a goroutine dump) elsewhere
			}
			t.Run(sub+"/"+name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				pidFile := filepath.Join(dir, "pids")
				inv, ok := subcommandsThatStartProcesses(t, dir, pidFile)[sub]
				if !ok {
					t.Skip("needs IDEMCHECK_TEST_DATABASE")
				}
				signalAndCheck(t, inv, pidFile, sig, name)
			})
		}
	}
}

func signalAndCheck(t *testing.T, inv invocation, pidFile string, sig syscall.Signal, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, stdout, stderr := inv.command(ctx, t)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	done := make(chan struct{})
	go func() { exited <- c.Wait(); close(done) }()
	pids := pidsIn(t, pidFile, spawned, done)
	if err := c.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("idemcheck still runs 30s after %s", name)
	}
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	if want := 128 + int(sig); code != want {
		t.Errorf("exit %d after %s, want %d\nstdout: %s\nstderr: %s", code, name, want, stdout, stderr)
	}
	line := strings.TrimSpace(stderr.String())
	if strings.Count(line, "\n") > 0 || !strings.Contains(line, "interrupted by "+name+": stopped ") {
		t.Errorf("stderr is not one line saying what was stopped: %q", stderr.String())
	}
	gone(t, pids, pids[:1])
}

// After a normal run of normcheck --exec, nothing its key command started
// is left, even what escaped with setsid or env -i setsid: the key command
// here leaves two such processes on every one of its runs.
func TestExecChildrenGoneAfterANormalRun(t *testing.T) {
	requireLinuxSetsid(t)
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pids")
	q := "'" + pidFile + "'"
	key := fmt.Sprintf(`cat >/dev/null
setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! >> %[1]s
env -i /usr/bin/setsid /bin/sleep 300 </dev/null >/dev/null 2>&1 & echo $! >> %[1]s
sleep 300 </dev/null >/dev/null 2>&1 & echo $! >> %[1]s
echo $$ >> %[1]s
echo key
`, q)
	r := invocation{args: []string{"normcheck", "--type", "cpf", "--exec", key,
		"--payload", filepath.Join(repoRoot, "testdata/normcheck/payload.json"), "--field", "chave_pix_destino", "111.444.777-35"}}.run(t)
	// The key ignores the field: the audit fails (exit 1), the run is normal.
	if r.code != 1 || !strings.Contains(r.stdout, "other_value") {
		t.Fatalf("exit %d\n%s", r.code, r.all())
	}
	pids := pidsIn(t, pidFile, 4, nil)
	if len(pids) < 4*10 {
		t.Errorf("the key command ran %d times, want one per spelling", len(pids)/4)
	}
	var leaders []int
	for i := 3; i < len(pids); i += 4 {
		leaders = append(leaders, pids[i])
	}
	gone(t, pids, leaders)
}
