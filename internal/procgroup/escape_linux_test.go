package procgroup

import "testing"

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
