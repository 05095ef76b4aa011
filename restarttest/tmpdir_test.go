package restarttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every handler gets the run's own TMPDIR (and GOTMPDIR), removed at the
// end: a `go run` handler killed mid-attempt leaves its build directory
// there, and it goes with the run.
func TestKilledGoRunLeavesNoBuildDirectory(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	<-testDSNReady // the tests' server must not land in this test's TMPDIR
	src := filepath.Join(t.TempDir(), "main.go")
	if err := os.WriteFile(src, []byte(`package main

import (
	"fmt"
	"os"
	"time"
)

func main() {
	fmt.Fprintln(os.Stderr, os.Args[0], os.Getenv("TMPDIR"))
	time.Sleep(time.Minute)
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cfg := Config{
		Handler:     goCmd + " run " + src,
		Message:     []byte(`{}`),
		KillPoints:  []KillPoint{{Kind: KillNone}},
		MaxAttempts: 1,
		Timeout:     10 * time.Second, // then the attempt is killed, go run with it
		DSN:         dsn(t),
	}
	rep, _ := runNoVerdict(t, cfg)
	a := rep.Rounds[0].Attempts[0]
	f := strings.Fields(lastLine(a.Stderr))
	if len(f) != 2 {
		t.Fatalf("the handler's stderr: %q", a.Stderr)
	}
	exe, runTmp := f[0], f[1]
	if !strings.HasPrefix(runTmp, filepath.Join(tmp, tempDirPrefix+".")) || !strings.HasPrefix(exe, runTmp+"/go-build") {
		t.Errorf("the binary %s, TMPDIR %s: want go run's build directory in the run's own TMPDIR under %s", exe, runTmp, tmp)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in TMPDIR after the run: %v", left)
	}
}
