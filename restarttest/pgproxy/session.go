package pgproxy

import (
	"bufio"
	"context"
	"errors"
	"maps"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// Session is one client connection and its upstream connection.
type Session struct {
	ID         uint64
	ClientAddr net.Addr // the client's end of its connection to the proxy
	BackendPID uint32   // the server process serving it
	User       string
	Database   string
	Params     map[string]string // the client's startup parameters

	p                    *Proxy
	client, upstream     net.Conn
	upNetwork, upAddress string
	ctx                  context.Context
	cancel               context.CancelFunc
	closeOnce            sync.Once

	be *pgproto3.Backend  // decodes what the client sends
	fe *pgproto3.Frontend // decodes what the server sends
	cw *bufio.Writer      // to the client: written by the server-side loop only
	uw *bufio.Writer      // upstream: written by the client-side loop only

	// Client-side loop only.
	prepared map[string]Statement
	portals  map[string]Statement
	ubuf     []byte

	mu      sync.Mutex
	pending []slot // the results the server owes, in order

	// Server-side loop only.
	tx     txState
	copyIn bool   // the current statement asked for COPY data
	hold   bool   // the client's bytes are held back, not written
	held   []byte // encoded messages held back
	cbuf   []byte
}

// slot is one result the server owes: a statement's completion, or the
// ReadyForQuery that ends a simple query, a Sync or a function call.
type slot struct {
	st     Statement
	simple bool // sent in a simple Query
	sync   bool
}

// txState is the transaction the server is running for the session.
type txState struct {
	explicit bool // inside BEGIN … COMMIT
	writes   []Statement
	tags     []string
}

var errDropped = errors.New("commit reply dropped")

// connect opens the upstream connection for a client's startup message and
// completes the client's startup with the server's parameters.
func (p *Proxy) connect(c net.Conn, be *pgproto3.Backend, m *pgproto3.StartupMessage) (*Session, error) {
	cfg := p.upstream.Copy()
	cfg.RuntimeParams = maps.Clone(cfg.RuntimeParams)
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	var unsupported []string
	for k, v := range m.Parameters {
		switch {
		case k == "user":
			cfg.User = v
		case k == "database":
			cfg.Database = v
		case strings.HasPrefix(k, "_pq_."):
			unsupported = append(unsupported, k)
		default:
			cfg.RuntimeParams[k] = v
		}
	}
	if cfg.Database == "" {
		cfg.Database = cfg.User
	}
	if p.cfg.User != "" {
		// Whatever user the client names, it gets this one.
		cfg.User, cfg.Password = p.cfg.User, p.cfg.Password
	}
	maps.Copy(cfg.RuntimeParams, p.cfg.Params)
	cw := bufio.NewWriterSize(c, 32<<10)
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	conn, err := pgconn.ConnectConfig(ctx, cfg)
	if err == nil {
		err = conn.SyncConn(ctx)
	}
	var hc *pgconn.HijackedConn
	if err == nil {
		hc, err = conn.Hijack()
	}
	if err != nil {
		if conn != nil {
			conn.Close(context.Background())
		}
		p.logf("database proxy: a client could not be connected to the database: %v", err)
		writeStartupError(cw, err)
		return nil, err
	}
	s := &Session{
		ClientAddr: c.RemoteAddr(),
		BackendPID: hc.PID,
		User:       cfg.User,
		Database:   cfg.Database,
		Params:     maps.Clone(m.Parameters),
		p:          p,
		client:     c,
		upstream:   hc.Conn,
		upNetwork:  hc.Conn.RemoteAddr().Network(),
		upAddress:  hc.Conn.RemoteAddr().String(),
		be:         be,
		fe:         hc.Frontend,
		cw:         cw,
		uw:         bufio.NewWriterSize(hc.Conn, 32<<10),
		prepared:   map[string]Statement{},
		portals:    map[string]Statement{},
	}
	s.ctx, s.cancel = context.WithCancel(p.ctx)
	if !p.add(s) {
		s.close()
		return nil, context.Canceled
	}
	// The upstream speaks protocol 3.0; a client that asked for more is
	// told so, as a 3.0 server would.
	var msgs []pgproto3.BackendMessage
	if m.ProtocolVersion != pgproto3.ProtocolVersion30 || len(unsupported) > 0 {
		msgs = append(msgs, &pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: unsupported})
	}
	msgs = append(msgs, &pgproto3.AuthenticationOk{})
	for k, v := range hc.ParameterStatuses {
		msgs = append(msgs, &pgproto3.ParameterStatus{Name: k, Value: v})
	}
	msgs = append(msgs, &pgproto3.BackendKeyData{ProcessID: hc.PID, SecretKey: hc.SecretKey}, &pgproto3.ReadyForQuery{TxStatus: 'I'})
	for _, msg := range msgs {
		if err := s.emit(msg); err != nil {
			s.close()
			return nil, err
		}
	}
	if err := s.cw.Flush(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func writeStartupError(w *bufio.Writer, err error) {
	e := &pgproto3.ErrorResponse{Severity: "FATAL", SeverityUnlocalized: "FATAL", Code: "08006",
		Message: "idemcheck database proxy: cannot connect to the database: " + err.Error()}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		e = &pgproto3.ErrorResponse{Severity: pgErr.Severity, SeverityUnlocalized: pgErr.SeverityUnlocalized,
			Code: pgErr.Code, Message: pgErr.Message, Detail: pgErr.Detail, Hint: pgErr.Hint}
	}
	if buf, err := e.Encode(nil); err == nil {
		_, _ = w.Write(buf)
		_ = w.Flush()
	}
}

// close ends both connections; safe to call more than once.
func (s *Session) close() {
	s.closeOnce.Do(func() {
		s.cancel()
		s.client.Close()
		s.upstream.Close()
		s.p.remove(s)
	})
}

// relay runs both directions until either side ends.
func (s *Session) relay() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.fromServer()
		s.close()
	}()
	_ = s.fromClient()
	s.close()
	<-done
}

// fromClient forwards what the client sends, noting the results the
// server will owe and holding writes for BeforeWrite.
func (s *Session) fromClient() error {
	for {
		msg, err := s.be.Receive()
		if err != nil {
			return err
		}
		flush := false
		switch m := msg.(type) {
		case *pgproto3.Query:
			stmts := Split(m.String)
			s.sawStatements(stmts...)
			if reason := s.refusal(stmts...); reason != "" {
				m.String = raiseSQL(reason)
				stmts = Split(m.String)
			}
			s.beforeWrite(stmts...)
			slots := make([]slot, 0, len(stmts)+1)
			for _, st := range stmts {
				slots = append(slots, slot{st: st, simple: true})
			}
			s.expect(append(slots, slot{sync: true})...)
			flush = true
		case *pgproto3.Parse:
			st := Classify(m.Query)
			s.sawStatements(st)
			if reason := s.refusal(st); reason != "" {
				m.Query = raiseSQL(reason)
				st = Classify(m.Query)
			}
			s.prepared[m.Name] = st
		case *pgproto3.Bind:
			s.portals[m.DestinationPortal] = s.prepared[m.PreparedStatement]
		case *pgproto3.Close:
			if m.ObjectType == 'S' {
				delete(s.prepared, m.Name)
			} else {
				delete(s.portals, m.Name)
			}
		case *pgproto3.Execute:
			st := s.portals[m.Portal]
			s.beforeWrite(st)
			s.expect(slot{st: st})
		case *pgproto3.Sync, *pgproto3.FunctionCall:
			s.expect(slot{sync: true})
			flush = true
		case *pgproto3.Flush, *pgproto3.CopyDone, *pgproto3.CopyFail:
			flush = true
		case *pgproto3.Terminate:
			s.ubuf, _ = m.Encode(s.ubuf[:0])
			_, _ = s.uw.Write(s.ubuf)
			_ = s.uw.Flush()
			return nil
		}
		if s.ctx.Err() != nil {
			return s.ctx.Err()
		}
		if s.ubuf, err = msg.Encode(s.ubuf[:0]); err != nil {
			return err
		}
		if _, err := s.uw.Write(s.ubuf); err != nil {
			return err
		}
		if flush {
			if err := s.uw.Flush(); err != nil {
				return err
			}
		}
	}
}

// refusal is Refuse's reason for the first statement it refuses.
func (s *Session) refusal(stmts ...Statement) string {
	if s.p.cfg.Refuse == nil {
		return ""
	}
	for _, st := range stmts {
		if reason := s.p.cfg.Refuse(s, st); reason != "" {
			return reason
		}
	}
	return ""
}

// raiseSQL is a statement that fails with reason.
func raiseSQL(reason string) string {
	quoted := "'" + strings.ReplaceAll(reason, "'", "''") + "'"
	return "do $pgproxy$ begin raise exception using errcode = '42501', message = " +
		strings.ReplaceAll(quoted, "$pgproxy$", "") + "; end $pgproxy$"
}

func (s *Session) sawStatements(stmts ...Statement) {
	if s.p.cfg.OnStatement == nil {
		return
	}
	for _, st := range stmts {
		s.p.cfg.OnStatement(s, st)
	}
}

// beforeWrite holds the message until BeforeWrite returns, when one of
// its statements writes. What was buffered so far goes out first, so the
// server is not kept waiting for the earlier messages of a pipeline.
func (s *Session) beforeWrite(stmts ...Statement) {
	if s.p.cfg.BeforeWrite == nil {
		return
	}
	for _, st := range stmts {
		if st.Writes() {
			_ = s.uw.Flush()
			s.p.cfg.BeforeWrite(s.ctx, s, st)
			return
		}
	}
}

func (s *Session) expect(slots ...slot) {
	s.mu.Lock()
	s.pending = append(s.pending, slots...)
	s.mu.Unlock()
}

// nextStatement takes the statement whose completion just arrived.
func (s *Session) nextStatement() slot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 || s.pending[0].sync {
		return slot{}
	}
	sl := s.pending[0]
	s.pending = s.pending[1:]
	return sl
}

// syncDone drops what the server owed up to and including the ReadyForQuery
// that just arrived: after an error the rest was skipped.
func (s *Session) syncDone() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.pending) > 0 {
		sync := s.pending[0].sync
		s.pending = s.pending[1:]
		if sync {
			return
		}
	}
}

// fromServer forwards what the server sends, following the transaction,
// and holds the reply to a writing commit until OnCommit has decided.
func (s *Session) fromServer() error {
	for {
		msg, err := s.fe.Receive()
		if err != nil {
			// The server went away (a FATAL error, a shutdown): what was
			// held answers nothing committed, so the client gets it.
			if s.hold {
				_ = s.release(nil)
				_ = s.cw.Flush()
			}
			return err
		}
		switch m := msg.(type) {
		case *pgproto3.CommandComplete:
			err = s.completed(m)
		case *pgproto3.EmptyQueryResponse, *pgproto3.PortalSuspended:
			s.nextStatement()
			err = s.emit(msg)
		case *pgproto3.CopyInResponse:
			s.copyIn = true
			err = s.release(msg) // the server now waits for the client's data
		case *pgproto3.CopyOutResponse, *pgproto3.CopyBothResponse:
			err = s.release(msg)
		case *pgproto3.ErrorResponse:
			if !s.tx.explicit {
				s.tx = txState{} // the implicit transaction is rolled back
			}
			err = s.emit(msg)
		case *pgproto3.ReadyForQuery:
			err = s.ready(m)
		case *pgproto3.NoticeResponse:
			if s.p.cfg.OnNotice == nil || s.p.cfg.OnNotice(s, m) {
				err = s.emit(msg)
			}
		default:
			err = s.emit(msg)
		}
		if err != nil {
			return err
		}
		if s.fe.ReadBufferLen() == 0 {
			if err := s.cw.Flush(); err != nil {
				return err
			}
		}
	}
}

// completed follows one statement's completion.
func (s *Session) completed(m *pgproto3.CommandComplete) error {
	sl := s.nextStatement()
	tag := string(m.CommandTag)
	if TagWrites(tag, sl.st, s.copyIn) {
		s.tx.writes = append(s.tx.writes, sl.st)
		s.tx.tags = append(s.tx.tags, tag)
	}
	s.copyIn = false
	switch verb, _, _ := strings.Cut(tag, " "); {
	case verb == "BEGIN" || tag == "START TRANSACTION":
		s.tx.explicit = true
	case tag == "COMMIT" || tag == "COMMIT PREPARED":
		tx := s.tx
		s.tx = txState{}
		if len(tx.writes) == 0 && tag == "COMMIT" {
			return s.emit(m)
		}
		// The transaction is committed now; its reply starts here.
		s.hold = true
		if err := s.emit(m); err != nil {
			return err
		}
		return s.decide(Commit{Writes: tx.writes, Tags: tx.tags, Implicit: !tx.explicit})
	case verb == "ROLLBACK" && sl.st.Kind != KindRollbackTo, tag == "PREPARE TRANSACTION":
		s.tx = txState{}
	}
	if !s.tx.explicit && len(s.tx.writes) > 0 && sl.simple {
		// In a simple query's implicit transaction the last completion is
		// sent after the commit: hold from the first write on.
		s.hold = true
	}
	return s.emit(m)
}

// ready ends a round trip; in an implicit transaction that wrote it is
// the commit's reply.
func (s *Session) ready(m *pgproto3.ReadyForQuery) error {
	s.syncDone()
	tx := s.tx
	if m.TxStatus == 'I' {
		s.tx = txState{}
	} else {
		s.tx.explicit = true
	}
	if m.TxStatus == 'I' && len(tx.writes) > 0 {
		s.hold = true
		if err := s.emit(m); err != nil {
			return err
		}
		return s.decide(Commit{Writes: tx.writes, Tags: tx.tags, Implicit: !tx.explicit})
	}
	return s.release(m)
}

// decide asks OnCommit what becomes of the held reply.
func (s *Session) decide(c Commit) error {
	action := Deliver
	if s.p.cfg.OnCommit != nil {
		action = s.p.cfg.OnCommit(s, c)
	}
	if action == Drop {
		s.held = s.held[:0]
		s.close()
		return errDropped
	}
	return s.release(nil)
}

// release writes what was held, then msg, and stops holding.
func (s *Session) release(msg pgproto3.BackendMessage) error {
	if s.hold {
		s.hold = false
		if _, err := s.cw.Write(s.held); err != nil {
			return err
		}
		s.held = s.held[:0]
	}
	if msg == nil {
		return nil
	}
	return s.emit(msg)
}

// emit encodes msg for the client: held back or buffered for writing.
func (s *Session) emit(msg pgproto3.BackendMessage) error {
	var err error
	if s.hold {
		s.held, err = msg.Encode(s.held)
		return err
	}
	if s.cbuf, err = msg.Encode(s.cbuf[:0]); err != nil {
		return err
	}
	_, err = s.cw.Write(s.cbuf)
	return err
}
