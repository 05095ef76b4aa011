package restarttest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// server runs the handler as a long-running HTTP server for --deliver mode:
// started on demand, killed as a whole process group, restarted by the next
// delivery.
type server struct {
	command string
	env     []string
	url     string
	addr    string
	client  *http.Client
	ownerOf func(port int, marker string) (listening, ours bool, who string, known bool) // portOwner; a test's stand-in

	mu      sync.Mutex
	proc    *groupProcess
	started bool  // a server of ours has run before, so a busy port is ours (where /proc cannot tell)
	foreign error // a listener on the port that is not the run's, once seen
}

func newServer(command, rawURL string, env []string) (*server, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" || u.Hostname() == "" || u.Port() == "" {
		return nil, fmt.Errorf("bad --deliver URL %q: want http://127.0.0.1:PORT/path", rawURL)
	}
	if !isLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("--deliver URL %q must be on loopback: the handler's server is started here", rawURL)
	}
	return &server{
		command: command,
		env:     env,
		url:     rawURL,
		addr:    u.Host,
		// No keep-alive: a killed server must not leave a pooled connection.
		client:  &http.Client{Transport: &http.Transport{DisableKeepAlives: true}},
		ownerOf: portOwner,
	}, nil
}

// ensure returns the running server, starting it and waiting for its port
// when it is not running.
func (s *server) ensure(ctx context.Context, timeout time.Duration) (*groupProcess, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil {
		select {
		case <-s.proc.done:
			s.proc = nil
		default:
			if err := s.checkOwner("while the handler's server ran"); err != nil {
				return s.proc, err
			}
			return s.proc, nil
		}
	}
	if err := s.checkOwner("before the handler started"); err != nil {
		return nil, err
	}
	if !s.started && s.listening() {
		return nil, &EnvError{Err: fmt.Errorf("something already listens on %s before the handler started", s.addr)}
	}
	p, err := startGroup(s.command, s.env, nil)
	if err != nil {
		return nil, err
	}
	s.proc, s.started = p, true
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		if s.listening() {
			if err := s.checkOwner("instead of the handler's server"); err != nil {
				p.kill()
				<-p.done
				s.proc = nil
				return p, err
			}
			return p, nil
		}
		select {
		case <-p.done:
			s.proc = nil
			return p, fmt.Errorf("server exited before listening on %s (exit %d)", s.addr, p.exitCode())
		case <-deadline.C:
			p.kill()
			<-p.done
			s.proc = nil
			return p, fmt.Errorf("server did not listen on %s within %s", s.addr, timeout)
		case <-ctx.Done():
			p.kill()
			<-p.done
			s.proc = nil
			return p, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (s *server) listening() bool {
	if _, portText, err := net.SplitHostPort(s.addr); err == nil {
		if port, err := strconv.Atoi(portText); err == nil {
			if up, known := portListening(port); known {
				return up
			}
		}
	}
	c, err := net.DialTimeout("tcp", s.addr, 200*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// checkOwner makes sure that what listens on the port, if anything, is a
// process of this run: another run on the same port (or a server left
// running) would answer this run's requests, and its effects would be
// judged as this handler's. Where /proc cannot tell, nothing is checked.
func (s *server) checkOwner(when string) error {
	if s.foreign != nil {
		return s.foreign
	}
	_, portText, err := net.SplitHostPort(s.addr)
	if err != nil {
		return nil
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil
	}
	listening, ours, who, known := s.owner(port)
	if !known || !listening || ours {
		return nil
	}
	if who == "" {
		who = "a process idemcheck may not inspect (another user's)"
	}
	s.foreign = &EnvError{Err: fmt.Errorf("%s already listens on %s (the --deliver port) %s: another run on the same port, or a server left running, would answer this run's requests; stop it or use another port",
		who, s.addr, when)}
	return s.foreign
}

// releaseWait bounds the wait for a listening socket that no process holds:
// a killed server's socket outlives, for a moment, the /proc entries that
// show its files (the kernel closes them after the fd table is gone), and
// on a loaded machine that moment was long enough to be taken for a
// foreign listener.
const releaseWait = 3 * time.Second

// owner is portOwner, waiting out a socket that no process holds until it
// is released or a holder shows.
func (s *server) owner(port int) (listening, ours bool, who string, known bool) {
	deadline := time.Now().Add(releaseWait)
	for {
		listening, ours, who, known = s.ownerOf(port, markerIn(s.env))
		if !known || !listening || ours || who != "" || time.Now().After(deadline) {
			return listening, ours, who, known
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// failure is the foreign listener seen during the run, if any.
func (s *server) failure() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.foreign
}

// stop kills the server's process group and waits for it.
func (s *server) stop() {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p != nil {
		p.kill()
		<-p.done
	}
}
