package pgproxy

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// Action is what OnCommit decides about the reply to a commit.
type Action int

const (
	// Deliver sends the server's reply to the client as usual.
	Deliver Action = iota
	// Drop never sends the reply: the client's connection and the server
	// connection are closed. The transaction stays committed; the client
	// sees a broken connection where the commit's result should be.
	Drop
)

// Commit describes a writing transaction the server has just committed.
type Commit struct {
	// Writes are the statements that wrote, in order, with the tags the
	// server answered them with.
	Writes []Statement
	Tags   []string
	// Implicit is true for a transaction without BEGIN: a single statement
	// in autocommit, a multi-statement query string, or a pipeline up to
	// its Sync.
	Implicit bool
}

// Config configures a Proxy. The hooks are optional and are called
// concurrently for different sessions.
type Config struct {
	// Upstream is the libpq DSN (URL or key=value) of the real server: TCP
	// or unix socket, any authentication pgconn supports.
	Upstream string
	// User and Password, when User is set, are what every upstream
	// connection logs in with, whatever user the client names: a client
	// gets no other role's session through the proxy.
	User, Password string
	// Listen is the TCP address to accept clients on; default 127.0.0.1:0.
	Listen string
	// Params are startup parameters added to every upstream connection,
	// over the client's own: they become the session's defaults (a custom
	// setting such as "myapp.run" marks the sessions as the proxy's).
	Params map[string]string

	// OnStatement sees every statement a client sends, when it is sent
	// (for a prepared statement: when it is parsed).
	OnStatement func(s *Session, st Statement)
	// Refuse, when it returns a reason, keeps a statement from the server:
	// the client's query (or prepared statement) is replaced by one that
	// fails with that reason (SQLSTATE 42501), so the client gets an
	// ordinary error in its place.
	Refuse func(s *Session, st Statement) (reason string)
	// BeforeWrite runs before a statement that writes, as far as its text
	// tells, is forwarded to the server. It may block to hold the write;
	// ctx ends when the session or the proxy closes.
	BeforeWrite func(ctx context.Context, s *Session, st Statement)
	// OnCommit runs after the server committed a writing transaction and
	// before the client has received any of the reply. Returning Drop
	// discards the reply and closes the connection.
	OnCommit func(s *Session, c Commit) Action
	// OnNotice sees every notice or warning the server sends a client;
	// returning false keeps it from the client.
	OnNotice func(s *Session, n *pgproto3.NoticeResponse) (forward bool)
	// Logf receives one-line notices (a client asked for TLS; a client
	// could not be connected upstream).
	Logf func(format string, args ...any)
}

// Proxy accepts clients on a loopback port and relays each to its own
// upstream connection.
type Proxy struct {
	cfg      Config
	upstream *pgconn.Config
	ln       net.Listener
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup

	mu       sync.Mutex
	sessions map[*Session]struct{}
	byPID    map[uint32]*Session
	nextID   uint64
	tlsOnce  sync.Once
}

// Start parses the upstream DSN and starts accepting clients. It does not
// connect upstream until a client connects.
func Start(cfg Config) (*Proxy, error) {
	up, err := pgconn.ParseConfig(cfg.Upstream)
	if err != nil {
		return nil, fmt.Errorf("bad upstream DSN: %w", err)
	}
	addr := cfg.Listen
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("database proxy: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Proxy{
		cfg: cfg, upstream: up, ln: ln, ctx: ctx, cancel: cancel,
		sessions: map[*Session]struct{}{}, byPID: map[uint32]*Session{},
	}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the address clients connect to.
func (p *Proxy) Addr() *net.TCPAddr { return p.ln.Addr().(*net.TCPAddr) }

// Close stops accepting, closes every session and waits for them.
func (p *Proxy) Close() error {
	p.cancel()
	err := p.ln.Close()
	p.mu.Lock()
	sessions := slices.Collect(maps.Keys(p.sessions))
	p.mu.Unlock()
	for _, s := range sessions {
		s.close()
	}
	p.wg.Wait()
	return err
}

func (p *Proxy) logf(format string, args ...any) {
	if p.cfg.Logf != nil {
		p.cfg.Logf(format, args...)
	}
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			if p.ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond) // EMFILE and the like: retry
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.serve(c)
		}()
	}
}

// serve answers the startup phase, then relays the session.
func (p *Proxy) serve(c net.Conn) {
	be := pgproto3.NewBackend(c, c)
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	for {
		msg, err := be.ReceiveStartupMessage()
		if err != nil {
			c.Close()
			return
		}
		switch m := msg.(type) {
		case *pgproto3.SSLRequest:
			p.tlsOnce.Do(func() {
				p.logf("a client asked the database proxy for TLS; the proxy speaks plaintext on loopback and answered no (use sslmode=disable or prefer)")
			})
			if _, err := c.Write([]byte{'N'}); err != nil {
				c.Close()
				return
			}
		case *pgproto3.GSSEncRequest:
			if _, err := c.Write([]byte{'N'}); err != nil {
				c.Close()
				return
			}
		case *pgproto3.CancelRequest:
			p.forwardCancel(m)
			c.Close()
			return
		case *pgproto3.StartupMessage:
			_ = c.SetDeadline(time.Time{})
			s, err := p.connect(c, be, m)
			if err != nil {
				c.Close()
				return
			}
			s.relay()
			return
		}
	}
}

// forwardCancel passes a cancel request on to the server, for backends of
// this proxy's own sessions only.
func (p *Proxy) forwardCancel(m *pgproto3.CancelRequest) {
	p.mu.Lock()
	s := p.byPID[m.ProcessID]
	p.mu.Unlock()
	if s == nil {
		return
	}
	up, err := net.DialTimeout(s.upNetwork, s.upAddress, 5*time.Second)
	if err != nil {
		p.logf("database proxy: cannot forward a cancel request: %v", err)
		return
	}
	defer up.Close()
	buf, err := m.Encode(nil)
	if err == nil {
		_, err = up.Write(buf)
	}
	if err == nil {
		// The server closes the connection once it has read the request.
		_ = up.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, _ = up.Read(make([]byte, 1))
	}
}

func (p *Proxy) add(s *Session) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return false
	}
	p.nextID++
	s.ID = p.nextID
	p.sessions[s] = struct{}{}
	p.byPID[s.BackendPID] = s
	return true
}

func (p *Proxy) remove(s *Session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.sessions, s)
	if p.byPID[s.BackendPID] == s {
		delete(p.byPID, s.BackendPID)
	}
}
