// Package procgroup runs a command we did not write — a user's handler, a
// key command, go vet and its vet tools — so that nothing it starts
// outlives it.
//
// The command leads a new process group, and the whole group is killed
// when the command exits, when Kill is called, and (Linux) when this
// process dies without cleaning up (parent-death signal). A child that
// left the group with setsid, even under `env -i` so that no environment
// marker survives, is still found on Linux: this process makes itself a
// child subreaper, so an orphaned descendant is re-parented to us instead
// of to init, and a scan of /proc follows parent links from the group's
// members and from our foreign-session children (see escape_linux.go).
//
// Output is read through our own pipes into bounded buffers (Tail) or the
// caller's writers, so a grandchild holding a pipe open cannot make Wait
// hang. Printable makes what a command printed safe to show.
package procgroup

import (
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"
)

// drainWait bounds how long output is still read after the group is
// killed: a process we could not kill (another user's) may hold a pipe.
const drainWait = 250 * time.Millisecond

// heldGrace is how long output may stay open after the command exited
// before we look for a process left behind that holds it.
const heldGrace = 20 * time.Millisecond

// heldConfirm is how long a process left behind must keep holding the
// output to count as holding it. A background job forked just before the
// command exited holds the pipes until its redirections run, which on a
// loaded machine can wait for the scheduler well beyond 200 ms (seen at a
// load of 13 on two cores); a real holder costs this much once, at exit.
const heldConfirm = time.Second

// Group is one command started in its own process group.
type Group struct {
	cmd  *exec.Cmd
	pgid int

	readers sync.WaitGroup
	pipes   []*os.File
	exited  chan struct{} // closed once the command itself has exited
	done    chan struct{} // closed once its group is killed and its output read
	state   *os.ProcessState
	waitErr error

	killOnce sync.Once
	killed   chan struct{} // closed when Kill was called
	// escapees are the pids of processes that had left the group, killed
	// by Kill or after the command's exit (both may meet one still dying).
	escapees   map[int]bool
	escapeesMu sync.Mutex

	outputHeld bool // set before done is closed
}

// Start starts cmd as the leader of a new process group. Whatever cmd.Stdout
// and cmd.Stderr are (nil discards, a Tail keeps a bounded tail), they are
// fed through pipes this package owns, so Wait returns once the group is
// gone even if an escapee we could not kill still holds an end. cmd must
// not have been started; its SysProcAttr is replaced.
func Start(cmd *exec.Cmd) (*Group, error) {
	if err := Supported(); err != nil {
		return nil, err
	}
	becomeSubreaper()
	g := &Group{
		cmd:    cmd,
		exited: make(chan struct{}),
		done:   make(chan struct{}),
		killed: make(chan struct{}),
	}
	cmd.SysProcAttr = groupAttr()
	if cmd.WaitDelay == 0 {
		// exec copies a non-file Stdin in a goroutine Wait waits for; an
		// escapee holding the pipe must not stall it.
		cmd.WaitDelay = time.Second
	}
	var toClose []*os.File
	var copies []func()
	for _, stream := range []*io.Writer{&cmd.Stdout, &cmd.Stderr} {
		w := *stream
		if w == nil {
			continue
		}
		if f, ok := w.(*os.File); ok {
			*stream = f // a file needs no copying
			continue
		}
		r, pw, err := os.Pipe()
		if err != nil {
			closeAll(toClose)
			return nil, err
		}
		toClose = append(toClose, r, pw)
		*stream = pw
		g.pipes = append(g.pipes, r)
		copies = append(copies, func() { _, _ = io.Copy(w, r) })
	}
	if err := cmd.Start(); err != nil {
		closeAll(toClose)
		return nil, err
	}
	for _, f := range toClose {
		if !slices.Contains(g.pipes, f) {
			f.Close() // our copy of the write end
		}
	}
	g.pgid = cmd.Process.Pid
	track(g)
	g.readers.Add(len(copies))
	for _, c := range copies {
		go func() { defer g.readers.Done(); c() }()
	}
	go g.wait()
	return g, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// wait reaps the command, then kills what it left behind (a background
// job, a grandchild, an escapee) and collects the output.
func (g *Group) wait() {
	g.waitErr = g.cmd.Wait()
	g.state = g.cmd.ProcessState
	close(g.exited)
	drained := make(chan struct{})
	go func() { g.readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(heldGrace):
		// Output still open after the command exited: a process it left
		// behind may hold it, so what was read may be incomplete.
		g.outputHeld = g.stillHeld(drained)
	}
	g.killAll()
	select {
	case <-drained:
	case <-time.After(drainWait):
		// Something we could not kill still holds a pipe: stop reading
		// rather than hang.
	}
	closeAll(g.pipes) // ends a pending read, so the readers return now
	g.readers.Wait()  // and no longer write to the caller's writers
	untrack(g)
	close(g.done)
}

// stillHeld reports whether a process left behind keeps holding the
// output. A background job forked just before the command exited holds the
// pipes it inherited until its own redirections (>/dev/null) take effect,
// so a holder must still hold them a moment later to count.
func (g *Group) stillHeld(drained <-chan struct{}) bool {
	deadline := time.After(heldConfirm)
	for pipesHeld(g) {
		select {
		case <-drained:
			return false
		case <-deadline:
			return true
		case <-time.After(10 * time.Millisecond):
		}
	}
	return false
}

// Kill sends SIGKILL to the whole process group and to every escapee found.
// It is safe to call more than once, concurrently, and after the command
// has exited.
func (g *Group) Kill() {
	g.killOnce.Do(func() { close(g.killed) })
	g.killAll()
}

func (g *Group) killAll() {
	// The tree is read while it is whole: once the group is killed, an
	// escapee whose parent was in it is re-parented to us, and one that
	// only left the group (setpgid, same session) looks like any child of
	// ours, unless a scan had recorded it before.
	recordMembers(g)
	killGroup(g.pgid)
	killed := killEscapees(g)
	g.escapeesMu.Lock()
	defer g.escapeesMu.Unlock()
	if g.escapees == nil {
		g.escapees = map[int]bool{}
	}
	maps.Copy(g.escapees, killed)
}

// Wait waits until the command has exited, its group is killed and its
// output is read, and returns the command's wait error (an *exec.ExitError
// for a non-zero exit).
func (g *Group) Wait() error {
	<-g.done
	return g.waitErr
}

// Pid is the command's process id, which is also its process group id.
func (g *Group) Pid() int { return g.pgid }

// Exited is closed once the command itself has exited.
func (g *Group) Exited() <-chan struct{} { return g.exited }

// Done is closed once the group is killed and the output read.
func (g *Group) Done() <-chan struct{} { return g.done }

// Killed reports whether Kill was called.
func (g *Group) Killed() bool {
	select {
	case <-g.killed:
		return true
	default:
		return false
	}
}

// OutputHeld reports, once Done, whether a process the command left behind
// still held its stdout or stderr open after it exited (it was killed; the
// output read may be incomplete).
func (g *Group) OutputHeld() bool {
	<-g.done
	return g.outputHeld
}

// Escaped is how many processes that had left the group were killed.
func (g *Group) Escaped() int {
	g.escapeesMu.Lock()
	defer g.escapeesMu.Unlock()
	return len(g.escapees)
}

// ExitCode is the command's exit status, or -1 when a signal ended it or it
// has not exited yet.
func (g *Group) ExitCode() int {
	select {
	case <-g.exited:
	default:
		return -1
	}
	if g.state == nil {
		return -1
	}
	return g.state.ExitCode()
}

// State is the command's exit state once it has exited, else nil.
func (g *Group) State() *os.ProcessState {
	select {
	case <-g.exited:
		return g.state
	default:
		return nil
	}
}

// Signal names the signal that ended the command, or "".
func (g *Group) Signal() string {
	select {
	case <-g.exited:
	default:
		return ""
	}
	if g.state == nil {
		return ""
	}
	if ws, ok := g.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}

// Supported returns ErrUnsupported on systems without process groups.
func Supported() error { return supported() }

// ErrUnsupported is returned by Start on systems without process groups.
var ErrUnsupported = errors.New("running commands in process groups needs a Unix system")
