//go:build linux

package procgroup

import (
	"bytes"
	"maps"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// How escapees are found on Linux.
//
// A process group is easy to leave: setsid, setpgid, a daemon's double
// fork. An environment marker is easy to lose: env -i. What cannot be
// left is the process tree, provided its root stays ours: this process is
// a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so when a process
// between the command and an escapee exits, the escapee is re-parented to
// us, not to init. A group's members are therefore
//   - every process in the group, and every descendant of one (parent
//     links in /proc/PID/stat);
//   - every process recorded as a member by an earlier scan (a watcher
//     scans every watchEvery while groups run), while its start time still
//     matches, and their descendants;
//   - every child of ours in another session ("strays": re-parented
//     escapees of a command whose ancestry we did not see in time; the
//     commands we start stay in our session), and their descendants.
// Strays cannot be told apart between groups running at the same time;
// they are killed with the first group that ends, which is what every
// caller (one run of one tool) wants.

// watchEvery is how often running groups' ancestry is recorded. It bounds
// the window in which a double fork could hide which group it came from
// when the command exits on its own (Kill records the ancestry first).
var watchEvery = 50 * time.Millisecond

var (
	subreaperOnce sync.Once
	selfPid       = os.Getpid()

	registry = struct {
		sync.Mutex
		members map[*Group]map[int]uint64 // group → pid → start time
		watcher *time.Ticker
	}{members: map[*Group]map[int]uint64{}}
)

func becomeSubreaper() {
	subreaperOnce.Do(func() {
		// Not fatal when refused (old kernel, seccomp): strays of a parent
		// that exits first then go to init, and are found only if the
		// watcher saw them.
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	})
}

// SetParentDeathSignal makes the kernel kill the command if the thread
// that started it dies, as when this process is killed with SIGKILL.
func SetParentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

func track(g *Group) {
	known := map[int]uint64{}
	if p, ok := readProc(g.pgid); ok {
		known[g.pgid] = p.start // so a reused pid is never taken for the leader
	}
	registry.Lock()
	defer registry.Unlock()
	registry.members[g] = known
	if registry.watcher == nil {
		t := time.NewTicker(watchEvery)
		registry.watcher = t
		go watch(t)
	}
}

func untrack(g *Group) {
	registry.Lock()
	defer registry.Unlock()
	delete(registry.members, g)
	if len(registry.members) == 0 && registry.watcher != nil {
		registry.watcher.Stop()
		registry.watcher = nil
	}
}

// watch records the running groups' members until its ticker is stopped.
func watch(t *time.Ticker) {
	for range t.C {
		registry.Lock()
		if registry.watcher != t {
			registry.Unlock()
			return
		}
		groups := map[*Group]map[int]uint64{}
		for g, known := range registry.members {
			groups[g] = maps.Clone(known)
		}
		registry.Unlock()
		for g, known := range groups {
			record(g, findMembers(g.pgid, known, false))
		}
	}
}

// recordMembers records g's members as they are now.
func recordMembers(g *Group) { record(g, findMembers(g.pgid, knownOf(g), false)) }

func record(g *Group, found map[int]proc) {
	registry.Lock()
	defer registry.Unlock()
	if rec := registry.members[g]; rec != nil {
		for pid, p := range found {
			rec[pid] = p.start
		}
	}
}

// knownOf returns a copy of what was recorded of g's members.
func knownOf(g *Group) map[int]uint64 {
	registry.Lock()
	defer registry.Unlock()
	return maps.Clone(registry.members[g])
}

// proc is what this package reads of /proc/PID/stat.
type proc struct {
	ppid, pgid, sid int
	start           uint64
	zombie          bool
}

// scanProcs reads every process's parent, group, session and start time.
func scanProcs() map[int]proc {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	procs := make(map[int]proc, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			procs[pid] = p
		}
	}
	return procs
}

func readProc(pid int) (proc, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	// pid (comm) state ppid pgrp session ... starttime(22): comm may hold
	// spaces and parentheses, so split after the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return proc{}, false
	}
	f := bytes.Fields(stat[i+1:])
	if len(f) < 20 {
		return proc{}, false
	}
	num := func(b []byte) int { n, _ := strconv.Atoi(string(b)); return n }
	start, _ := strconv.ParseUint(string(f[19]), 10, 64)
	return proc{
		ppid:   num(f[1]),
		pgid:   num(f[2]),
		sid:    num(f[3]),
		start:  start,
		zombie: f[0][0] == 'Z' || f[0][0] == 'X',
	}, true
}

// haveChildrenFiles tells whether the kernel lists each thread's children
// (/proc/PID/task/TID/children, CONFIG_PROC_CHILDREN): then a group's
// members are found by walking down from it, at a cost that grows with the
// group, not with every process on the machine.
var haveChildrenFiles = func() bool {
	_, err := os.Stat("/proc/self/task/" + strconv.Itoa(syscall.Gettid()) + "/children")
	return err == nil
}()

// childrenOf lists the children of every thread of pid.
func childrenOf(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var children []int
	for _, t := range tasks {
		data, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range bytes.Fields(data) {
			if n, err := strconv.Atoi(string(f)); err == nil {
				children = append(children, n)
			}
		}
	}
	return children
}

// findMembers returns the processes belonging to the group pgid (see the
// comment at the top of this file); withStrays adds our foreign-session
// children. known maps recorded members, the leader included, to their
// start times: a recorded pid now naming another process is left alone.
func findMembers(pgid int, known map[int]uint64, withStrays bool) map[int]proc {
	if !haveChildrenFiles {
		return membersOf(pgid, known, scanProcs(), withStrays)
	}
	self, selfOK := readProc(selfPid)
	var seeds []int
	for pid := range known {
		seeds = append(seeds, pid)
	}
	for _, c := range childrenOf(selfPid) {
		p, ok := readProc(c)
		if ok && (p.pgid == pgid || withStrays && selfOK && p.sid != self.sid) {
			seeds = append(seeds, c)
		}
	}
	members := map[int]proc{}
	for len(seeds) > 0 {
		pid := seeds[len(seeds)-1]
		seeds = seeds[:len(seeds)-1]
		if _, seen := members[pid]; seen || pid == selfPid {
			continue
		}
		p, ok := readProc(pid)
		if !ok || known[pid] != 0 && known[pid] != p.start {
			continue
		}
		members[pid] = p
		seeds = append(seeds, childrenOf(pid)...)
	}
	return members
}

// membersOf is findMembers over a scan of every process, for kernels
// without children files.
func membersOf(pgid int, known map[int]uint64, procs map[int]proc, withStrays bool) map[int]proc {
	self, ok := procs[selfPid]
	children := map[int][]int{}
	var seeds []int
	for pid, p := range procs {
		children[p.ppid] = append(children[p.ppid], pid)
		switch {
		case pid == selfPid:
		case p.pgid == pgid:
			seeds = append(seeds, pid)
		case known[pid] != 0 && known[pid] == p.start:
			seeds = append(seeds, pid)
		case withStrays && ok && p.ppid == selfPid && p.sid != self.sid:
			seeds = append(seeds, pid)
		}
	}
	members := map[int]proc{}
	for len(seeds) > 0 {
		pid := seeds[len(seeds)-1]
		seeds = seeds[:len(seeds)-1]
		if _, seen := members[pid]; seen || pid == selfPid {
			continue
		}
		members[pid] = procs[pid]
		seeds = append(seeds, children[pid]...)
	}
	return members
}

// killEscapees kills, until a scan finds none alive, every member of g
// outside its process group (the group itself was just sent SIGKILL), and
// reaps those re-parented to us. It returns the pids it killed.
func killEscapees(g *Group) map[int]bool {
	known := knownOf(g)
	killed := map[int]bool{}
	for _, wait := range settleWaits() {
		members := findMembers(g.pgid, known, true)
		alive := 0
		for pid, p := range members {
			if pid == g.pgid {
				continue // the leader is exec's to reap
			}
			if p.zombie {
				if p.ppid == selfPid {
					reap(pid)
				} else if _, dying := members[p.ppid]; dying {
					// Its parent, killed too, has not exited yet: when it
					// does, this zombie is re-parented to us, and only we
					// can reap it. Look again rather than leave it behind
					// until the group's output is drained.
					alive++
				}
				continue
			}
			alive++
			if syscall.Kill(pid, syscall.SIGKILL) == nil && p.pgid != g.pgid {
				killed[pid] = true
			}
		}
		if alive == 0 {
			break
		}
		time.Sleep(wait) // let SIGKILL land before looking again
	}
	return killed
}

// settleWaits are the pauses between looking for members still alive
// after SIGKILL: short at first, longer on a loaded machine, about 3 s in
// all before giving up.
func settleWaits() []time.Duration {
	var waits []time.Duration
	for d := time.Millisecond; len(waits) < 20; d = min(2*d, 250*time.Millisecond) {
		waits = append(waits, d)
	}
	return waits
}

// reap collects the exit status of a zombie re-parented to us, which no
// exec.Cmd will ever wait for.
func reap(pid int) {
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
}

// KillStrays kills every child of ours in another session and its
// descendants: escapees re-parented to us that no running group claimed.
// Call it before exiting.
func KillStrays() int {
	n := 0
	for _, wait := range settleWaits() {
		members := findMembers(-1, nil, true)
		alive := 0
		for pid, p := range members {
			if p.zombie {
				if p.ppid == selfPid {
					reap(pid)
				}
				continue
			}
			alive++
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				n++
			}
		}
		if alive == 0 {
			break
		}
		time.Sleep(wait)
	}
	return n
}

// pipesHeld reports whether a live member of g other than its leader has
// one of g's output pipes open.
func pipesHeld(g *Group) bool {
	want := map[string]bool{}
	for _, r := range g.pipes {
		// Stat, not Fd: Fd would make the pipe blocking, and a blocked
		// read could then not be ended by Close.
		if fi, err := r.Stat(); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				want["pipe:["+strconv.FormatUint(st.Ino, 10)+"]"] = true
			}
		}
	}
	members := findMembers(g.pgid, knownOf(g), true)
	for pid, p := range members {
		if pid == g.pgid || p.zombie {
			continue
		}
		dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
		fds, _ := os.ReadDir(dir)
		for _, fd := range fds {
			if link, err := os.Readlink(dir + fd.Name()); err == nil && want[link] {
				return true
			}
		}
	}
	return false
}
