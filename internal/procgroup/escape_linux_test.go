package procgroup

import (
	"os/exec"
	"testing"
	"time"
)

// The same, on a kernel without /proc/PID/task/TID/children: found by a
// scan of every process. Not parallel: it switches the mechanism.
func TestEscapeesAreFoundByAFullScan(t *testing.T) {
	requireEscapeTracking(t)
	defer func(saved bool) { haveChildrenFiles = saved }(haveChildrenFiles)
	haveChildrenFiles = false
	g, out := shell(t, "(env -i /usr/bin/setsid /bin/sleep 309 & echo $! >>$OUT)\nsh -c 'perl -e \"setpgrp(0, 0); exec q(sleep), 310\" & echo $! >>$OUT; sleep 0.2'")
	pids := pidsIn(t, out, 2)
	_ = g.Wait()
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("pid %d survived", pid)
		}
	}
}

// Kill finds a process that left the group (setpgid, same session) even
// when no watcher scan has seen it yet: it reads the tree before the group
// dies and the escapee is re-parented to us (2 of 20 cold runs under load
// lost this race with the 50 ms watcher alone). Not parallel: it holds the
// watcher off.
func TestKillFindsAnEscapeeNoScanHasSeen(t *testing.T) {
	requireEscapeTracking(t)
	defer func(d time.Duration) { watchEvery = d }(watchEvery)
	watchEvery = time.Hour
	g, out := shell(t, `sh -c 'perl -e "setpgrp(0, 0); exec q(sleep), 311" & echo $! >>$OUT; sleep 300'
sleep 300`)
	pids := pidsIn(t, out, 1)
	// The escapee has left the group once perl has exec'd sleep.
	deadline := time.Now().Add(time.Minute)
	for {
		p, ok := readProc(pids[0])
		if ok && p.pgid == pids[0] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the escapee never left the group")
		}
		time.Sleep(5 * time.Millisecond)
	}
	g.Kill()
	_ = g.Wait()
	if alive(pids[0]) {
		t.Errorf("pid %d survived", pids[0])
	}
	if g.Escaped() != 1 {
		t.Errorf("Escaped() = %d, want 1", g.Escaped())
	}
}

// Kill leaves no zombie behind. A child that dies before its parent, the
// leader, has finished dying is a zombie of the leader's, re-parented to
// us only when the leader exits, and then only we can reap it. Kill used
// to stop looking as soon as nothing was alive, so such zombies stayed
// until the group's output was drained (a second or two after each kill
// of a `go run` server). The leader here holds a large heap, so that it
// takes a while to die after SIGKILL.
func TestKillReapsChildrenOfADyingLeader(t *testing.T) {
	requireEscapeTracking(t)
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("no perl")
	}
	g, out := shell(t, `exec perl -e 'my $x = "a" x 800000000; my $pid = fork(); if ($pid == 0) { exec("sleep", "313") } open(my $f, ">>", $ENV{OUT}); print $f "$pid\n"; close($f); sleep 300'`)
	pids := pidsIn(t, out, 1)
	g.Kill()
	for _, pid := range pids {
		if p, ok := readProc(pid); ok {
			t.Errorf("pid %d still there after Kill (zombie %v, parent %d)", pid, p.zombie, p.ppid)
		}
	}
	_ = g.Wait()
}
