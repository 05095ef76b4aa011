package restarttest

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// outputCap bounds what is kept of a handler's stdout and stderr each.
const outputCap = 16 << 10

// groupProcess is one `sh -c CMD` started in its own process group (see
// internal/procgroup): killing it kills the whole group and whatever left
// it, so nothing the handler spawned survives.
type groupProcess struct {
	*procgroup.Group
	pgid           int
	stdout, stderr *procgroup.Tail
	exited         <-chan struct{}
	done           chan struct{} // closed once state is set and the group is done
	state          *os.ProcessState
}

// startGroup runs command with `sh -c` in a new process group. stdin may be
// nil (then the handler reads /dev/null).
func startGroup(command string, env []string, stdin *os.File) (*groupProcess, error) {
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = stdin
	}
	p := &groupProcess{stdout: procgroup.NewTail(outputCap), stderr: procgroup.NewTail(outputCap)}
	cmd.Stdout, cmd.Stderr = p.stdout, p.stderr
	g, err := procgroup.Start(cmd)
	if err != nil {
		return nil, err
	}
	p.Group, p.pgid, p.exited, p.done = g, g.Pid(), g.Exited(), make(chan struct{})
	go func() {
		<-g.Done()
		p.state = g.State()
		close(p.done)
	}()
	escapes.add(markerIn(env), g)
	return p, nil
}

func (p *groupProcess) kill()           { p.Kill() }
func (p *groupProcess) wasKilled() bool { return p.Killed() }
func (p *groupProcess) exitCode() int   { return p.ExitCode() }
func (p *groupProcess) signal() string  { return p.Signal() }

func supported() error {
	if procgroup.Supported() != nil {
		return errors.New("restart-test needs a Unix system (process groups, sh)")
	}
	return nil
}

// markerIn returns the run marker entry of a handler's environment.
func markerIn(env []string) string {
	for _, kv := range env {
		if strings.HasPrefix(kv, runMarkerEnv+"=") {
			return kv
		}
	}
	return ""
}

// escapes counts, per run marker, the processes that left a handler's
// process group and were killed when the group ended, until the run's next
// sweep reports them.
var escapes = escapeTally{groups: map[string]map[*procgroup.Group]int{}}

type escapeTally struct {
	mu     sync.Mutex
	groups map[string]map[*procgroup.Group]int // marker → group → escapees reported
}

func (t *escapeTally) add(marker string, g *procgroup.Group) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.groups[marker] == nil {
		t.groups[marker] = map[*procgroup.Group]int{}
	}
	t.groups[marker][g] = 0
}

// take returns the escapees of the marker's groups not reported yet, and
// forgets the groups that are done.
func (t *escapeTally) take(marker string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for g, reported := range t.groups[marker] {
		done := false
		select {
		case <-g.Done():
			done = true
		default:
		}
		escaped := g.Escaped()
		n += escaped - reported
		t.groups[marker][g] = escaped
		if done {
			delete(t.groups[marker], g)
		}
	}
	if len(t.groups[marker]) == 0 {
		delete(t.groups, marker)
	}
	return n
}
