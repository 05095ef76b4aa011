package restarttest

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// outputCap bounds what is kept of a handler's stdout and stderr each.
const outputCap = 16 << 10

// groupProcess is one `sh -c CMD` started in its own process group. Killing
// it kills the whole group, so nothing the handler spawned survives.
type groupProcess struct {
	cmd    *exec.Cmd
	pgid   int
	stdout *tailBuffer
	stderr *tailBuffer

	readers sync.WaitGroup
	pipes   []*os.File
	exited  chan struct{} // closed once the shell has exited
	done    chan struct{} // closed once its group is killed and its output collected
	state   *os.ProcessState
	waitErr error

	killOnce sync.Once
	killed   chan struct{} // closed when kill was called
}

// startGroup runs command with `sh -c` in a new process group. stdin may be
// nil (then the handler reads /dev/null).
func startGroup(command string, env []string, stdin *os.File) (*groupProcess, error) {
	p := &groupProcess{
		stdout: newTailBuffer(outputCap),
		stderr: newTailBuffer(outputCap),
		exited: make(chan struct{}),
		done:   make(chan struct{}),
		killed: make(chan struct{}),
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Env = env
	cmd.SysProcAttr = groupSysProcAttr()
	if stdin != nil {
		cmd.Stdin = stdin
	}
	// Own pipes, not io.Writers: exec would otherwise wait for every
	// grandchild that inherited the pipe before Wait returns.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{outR, outW, errR, errW} {
			f.Close()
		}
		return nil, err
	}
	outW.Close()
	errW.Close()
	p.cmd = cmd
	p.pgid = cmd.Process.Pid
	p.pipes = []*os.File{outR, errR}
	p.readers.Add(2)
	go p.drain(outR, p.stdout)
	go p.drain(errR, p.stderr)
	go p.wait()
	return p, nil
}

func (p *groupProcess) drain(r *os.File, into *tailBuffer) {
	defer p.readers.Done()
	_, _ = io.Copy(into, r)
}

// wait reaps the shell, then kills whatever it left in its group (a
// background job, a grandchild) and collects the output.
func (p *groupProcess) wait() {
	p.waitErr = p.cmd.Wait()
	p.state = p.cmd.ProcessState
	close(p.exited)
	killGroup(p.pgid)
	drained := make(chan struct{})
	go func() { p.readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(250 * time.Millisecond):
		// Something outside the group (it called setsid) still holds the
		// pipe; stop reading rather than hang. The round's sweep kills it.
	}
	for _, f := range p.pipes {
		f.Close()
	}
	close(p.done)
}

// kill sends SIGKILL to the whole process group. It is safe to call more
// than once and after the process has exited.
func (p *groupProcess) kill() {
	p.killOnce.Do(func() { close(p.killed) })
	killGroup(p.pgid)
}

// wasKilled reports whether kill was called before the process ended.
func (p *groupProcess) wasKilled() bool {
	select {
	case <-p.killed:
		return true
	default:
		return false
	}
}

// exitCode is the shell's exit status, or -1 when a signal ended it.
func (p *groupProcess) exitCode() int {
	if p.state == nil {
		return -1
	}
	return p.state.ExitCode()
}

// signal names the signal that ended the process, if any.
func (p *groupProcess) signal() string {
	if p.state == nil {
		return ""
	}
	if ws, ok := p.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}

func killGroup(pgid int) {
	if pgid <= 0 {
		return
	}
	err := signalGroup(pgid)
	if err != nil && !errors.Is(err, syscall.ESRCH) {
		// Nothing more can be done; the caller reports the process state.
		_ = err
	}
}
