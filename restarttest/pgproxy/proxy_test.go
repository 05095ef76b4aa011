package pgproxy_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/idemcheck/idemcheck/restarttest/pgembed"
	"github.com/idemcheck/idemcheck/restarttest/pgproxy"
)

// The tests talk to a real PostgreSQL: IDEMCHECK_TEST_DATABASE, else an
// embedded server started from the installed binaries.
var (
	upstreamDSN string
	upstreamErr error
	embedded    *pgembed.Server
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		upstreamErr = errors.New("-short: no PostgreSQL")
	} else if v, ok := os.LookupEnv("IDEMCHECK_TEST_DATABASE"); ok {
		upstreamDSN = v
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		embedded, upstreamErr = pgembed.Start(ctx)
		cancel()
		if upstreamErr == nil {
			upstreamDSN = embedded.DSN()
		}
	}
	code := m.Run()
	embedded.Stop()
	os.Exit(code)
}

func upstream(t *testing.T) string {
	t.Helper()
	if upstreamErr != nil {
		t.Skipf("no PostgreSQL: %v", upstreamErr)
	}
	return upstreamDSN
}

// recorder collects the commits the proxy reported.
type recorder struct {
	mu      sync.Mutex
	commits []pgproxy.Commit
	stmts   []pgproxy.Statement
}

func (r *recorder) onCommit(_ *pgproxy.Session, c pgproxy.Commit) pgproxy.Action {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.commits = append(r.commits, c)
	return pgproxy.Deliver
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.commits)
}

// schema creates a fresh schema with table t and returns a DSN through
// the proxy whose search_path is that schema, plus a direct connection.
func schema(t *testing.T, cfg pgproxy.Config) (proxyDSN string, direct *pgx.Conn) {
	t.Helper()
	ctx := context.Background()
	cfg.Upstream = upstream(t)
	p, err := pgproxy.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	direct, err = pgx.Connect(ctx, cfg.Upstream)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("pgproxy_test_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := direct.Exec(ctx, "create schema "+name+"; create table "+name+".t (id int primary key, v text)"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = direct.Exec(context.Background(), "drop schema "+name+" cascade")
		direct.Close(context.Background())
	})
	up, _ := pgconn.ParseConfig(cfg.Upstream)
	proxyDSN = fmt.Sprintf("postgres://%s@%s/%s?sslmode=disable&options=-csearch_path%%3D%s", up.User, p.Addr(), up.Database, name)
	return proxyDSN, direct
}

func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// Every kind of writing transaction counts once, whatever protocol it
// takes; reads, empty writes and rolled-back writes do not count.
func TestCountsWritingTransactions(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		run    func(c *pgx.Conn) error
		writes int
	}{
		{"autocommit insert (simple)", func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "insert into t values (1, 'a')")
			return err
		}, 1},
		{"autocommit insert (extended)", func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "insert into t values ($1, $2)", 1, "a")
			return err
		}, 1},
		{"insert of no rows", func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "insert into t select 1, 'a' where false")
			return err
		}, 0},
		{"read only", func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "select * from t for update")
			return err
		}, 0},
		{"explicit transaction with two writes", func(c *pgx.Conn) error {
			return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, "insert into t values (1, 'a')"); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, "update t set v = $1", "b")
				return err
			})
		}, 1},
		{"rolled back", func(c *pgx.Conn) error {
			tx, err := c.Begin(ctx)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "insert into t values (1, 'a')"); err != nil {
				return err
			}
			return tx.Rollback(ctx)
		}, 0},
		{"savepoint rolled back, outer write kept", func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "begin; insert into t values (1, 'a'); savepoint s; insert into t values (2, 'b'); rollback to savepoint s; commit")
			return err
		}, 1},
		{"failed transaction", func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "begin; insert into t values (1, 'a'); select 1/0")
			if err == nil {
				return errors.New("division by zero did not fail")
			}
			_, err = c.Exec(ctx, "commit")
			return err
		}, 0},
		{"failed implicit transaction", func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "insert into t values (1, 'a'); select 1/0")
			if err == nil {
				return errors.New("division by zero did not fail")
			}
			return nil
		}, 0},
		{"multi-statement query string", func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "insert into t values (1, 'a'); insert into t values (2, 'b')")
			return err
		}, 1},
		{"two transactions in one query string", func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "begin; insert into t values (1, 'a'); commit; begin; insert into t values (2, 'b'); commit")
			return err
		}, 2},
		{"pipeline of three inserts", func(c *pgx.Conn) error {
			b := &pgx.Batch{}
			for i := 1; i <= 3; i++ {
				b.Queue("insert into t values ($1, 'p')", i)
			}
			return c.SendBatch(ctx, b).Close()
		}, 1},
		{"writable CTE", func(c *pgx.Conn) error {
			var n int
			return c.QueryRow(ctx, "with x as (insert into t values (1, 'a') returning 1) select count(*) from x").Scan(&n)
		}, 1},
		{"table created by the client, then written", func(c *pgx.Conn) error {
			if _, err := c.Exec(ctx, "create table mine (id int)"); err != nil {
				return err
			}
			_, err := c.Exec(ctx, "insert into mine values ($1)", 7)
			return err
		}, 2},
		{"copy from", func(c *pgx.Conn) error {
			_, err := c.CopyFrom(ctx, pgx.Identifier{"t"}, []string{"id", "v"}, pgx.CopyFromRows([][]any{{1, "a"}, {2, "b"}}))
			return err
		}, 1},
		{"copy to", func(c *pgx.Conn) error {
			_, err := c.PgConn().CopyTo(ctx, discard{}, "copy t to stdout")
			return err
		}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			dsn, _ := schema(t, pgproxy.Config{OnCommit: rec.onCommit})
			c := connect(t, dsn)
			if err := tc.run(c); err != nil {
				t.Fatal(err)
			}
			// A round trip after the case: its commits have all been seen.
			if _, err := c.Exec(ctx, "select 1"); err != nil {
				t.Fatal(err)
			}
			if got := rec.count(); got != tc.writes {
				t.Errorf("%d writing commits reported, want %d: %+v", got, tc.writes, rec.commits)
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// When OnCommit runs, the transaction is committed (another connection
// sees it) and the client has not been answered; Drop leaves it with a
// broken connection.
func TestCommitReplyHeldAndDropped(t *testing.T) {
	ctx := context.Background()
	var direct *pgx.Conn
	seenCommitted := make(chan bool, 4)
	var answered atomic.Bool
	dsn, direct := schema(t, pgproxy.Config{OnCommit: func(_ *pgproxy.Session, c pgproxy.Commit) pgproxy.Action {
		var n int
		err := direct.QueryRow(ctx, "select count(*) from "+schemaOf(t, direct)+".t").Scan(&n)
		seenCommitted <- err == nil && n == 2 && !answered.Load()
		return pgproxy.Drop
	}})
	for _, mode := range []string{"simple autocommit", "extended explicit"} {
		t.Run(mode, func(t *testing.T) {
			_, _ = direct.Exec(ctx, "truncate "+schemaOf(t, direct)+".t")
			c := connect(t, dsn)
			var err error
			switch mode {
			case "simple autocommit":
				_, err = c.Exec(ctx, "insert into t values (1, 'a'); insert into t values (2, 'b')")
			default:
				err = pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
					for i := 1; i <= 2; i++ {
						if _, err := tx.Exec(ctx, "insert into t values ($1, 'x')", i); err != nil {
							return err
						}
					}
					return nil
				})
			}
			answered.Store(true)
			defer answered.Store(false)
			if ok := <-seenCommitted; !ok {
				t.Error("OnCommit ran before the commit was visible, or after the client was answered")
			}
			if err == nil {
				t.Fatal("the client got an answer to a dropped commit")
			}
			if !c.IsClosed() {
				t.Error("the client's connection is still open after Drop")
			}
		})
	}
}

func schemaOf(t *testing.T, direct *pgx.Conn) string {
	t.Helper()
	var name string
	err := direct.QueryRow(context.Background(),
		"select nspname from pg_namespace where nspname like 'pgproxy_test_%' and nspname like $1 order by oid desc limit 1",
		fmt.Sprintf("pgproxy_test_%d_%%", os.Getpid())).Scan(&name)
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// BeforeWrite holds a write before the server sees it.
func TestBeforeWriteHoldsTheWrite(t *testing.T) {
	ctx := context.Background()
	release := make(chan struct{})
	reached := make(chan string, 1)
	dsn, direct := schema(t, pgproxy.Config{BeforeWrite: func(ctx context.Context, _ *pgproxy.Session, st pgproxy.Statement) {
		reached <- st.SQL
		select {
		case <-release:
		case <-ctx.Done():
		}
	}})
	c := connect(t, dsn)
	done := make(chan error, 1)
	go func() {
		_, err := c.Exec(ctx, "insert into t values ($1, 'held')", 1)
		done <- err
	}()
	if sql := <-reached; !strings.HasPrefix(sql, "insert into t") {
		t.Errorf("held %q", sql)
	}
	time.Sleep(50 * time.Millisecond)
	var n int
	if err := direct.QueryRow(ctx, "select count(*) from "+schemaOf(t, direct)+".t").Scan(&n); err != nil || n != 0 {
		t.Errorf("the held write reached the server: %d rows, %v", n, err)
	}
	select {
	case err := <-done:
		t.Fatalf("the client was answered while its write was held: %v", err)
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A client asking for TLS is told no and continues in plaintext when its
// sslmode allows; one that requires TLS gets a clear refusal.
func TestTLSAndGSSRequestsAnsweredNo(t *testing.T) {
	var logged atomic.Value
	dsn, _ := schema(t, pgproxy.Config{Logf: func(f string, a ...any) { logged.Store(fmt.Sprintf(f, a...)) }})
	prefer := strings.Replace(dsn, "sslmode=disable", "sslmode=prefer", 1)
	c := connect(t, prefer)
	if _, err := c.Exec(context.Background(), "select 1"); err != nil {
		t.Fatal(err)
	}
	if msg, _ := logged.Load().(string); !strings.Contains(msg, "plaintext on loopback") {
		t.Errorf("log %q does not explain the refusal", msg)
	}
	_, err := pgx.Connect(context.Background(), strings.Replace(dsn, "sslmode=disable", "sslmode=require", 1))
	if err == nil || !strings.Contains(err.Error(), "refused TLS") {
		t.Errorf("sslmode=require: err = %v, want the server refused TLS", err)
	}

	// GSSENCRequest: 8 bytes, code 80877104; the answer is one byte.
	addr := strings.SplitN(strings.TrimPrefix(dsn, "postgres://"), "@", 2)[1]
	addr = addr[:strings.IndexByte(addr, '/')]
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Write([]byte{0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x30}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	_ = raw.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := raw.Read(b); err != nil || b[0] != 'N' {
		t.Errorf("GSSENCRequest answered %q, %v; want N", b, err)
	}
}

// A cancel request sent to the proxy reaches the backend.
func TestCancelRequestForwarded(t *testing.T) {
	dsn, _ := schema(t, pgproxy.Config{})
	c := connect(t, dsn)
	go func() {
		time.Sleep(200 * time.Millisecond)
		_ = c.PgConn().CancelRequest(context.Background())
	}()
	start := time.Now()
	_, err := c.Exec(context.Background(), "select pg_sleep(20)")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "57014" {
		t.Fatalf("err = %v, want query_canceled", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("cancel took %s", took)
	}
}

// libpq through the proxy: psql with COPY FROM STDIN, \copy and a
// multi-statement string; the upstream may be a unix socket.
func TestPsqlThroughProxy(t *testing.T) {
	if _, err := exec.LookPath("psql"); err != nil {
		t.Skip("psql not installed")
	}
	rec := &recorder{}
	dsn, direct := schema(t, pgproxy.Config{OnCommit: rec.onCommit})
	psql := func(stdin string, args ...string) string {
		cmd := exec.Command("psql", append([]string{"-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", dsn}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("psql %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	psql("copy t from stdin;\n1\tone\n2\ttwo\n\\.\n")
	psql("3\tthree\n", "-c", `\copy t from stdin`)
	psql("", "-c", "update t set v = upper(v); select 1")
	if got := psql("", "-c", "select string_agg(v, ',' order by id) from t"); got != "ONE,TWO,THREE" {
		t.Errorf("table holds %q", got)
	}
	if rec.count() != 3 {
		t.Errorf("%d writing commits, want 3 (copy, \\copy, update)", rec.count())
	}
	_ = direct
}

// The upstream may be a unix socket.
func TestUnixSocketUpstream(t *testing.T) {
	up := upstream(t)
	cfg, err := pgconn.ParseConfig(up)
	if err != nil {
		t.Fatal(err)
	}
	dir := "/var/run/postgresql"
	if embedded != nil {
		dir = embedded.Dir
	}
	if _, err := os.Stat(fmt.Sprintf("%s/.s.PGSQL.%d", dir, cfg.Port)); err != nil {
		t.Skipf("no unix socket for the test server: %v", err)
	}
	rec := &recorder{}
	p, err := pgproxy.Start(pgproxy.Config{
		Upstream: fmt.Sprintf("host=%s port=%d user=%s dbname=%s", dir, cfg.Port, cfg.User, cfg.Database),
		OnCommit: rec.onCommit,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := connect(t, fmt.Sprintf("postgres://%s@%s/%s?sslmode=disable", cfg.User, p.Addr(), cfg.Database))
	if _, err := c.Exec(context.Background(), "create temp table x (a int); insert into x values (1)"); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 1 {
		t.Errorf("%d writing commits, want 1", rec.count())
	}
}

// A database that does not exist: the client gets the server's own error.
func TestUpstreamErrorReachesTheClient(t *testing.T) {
	dsn, _ := schema(t, pgproxy.Config{})
	i := strings.LastIndexByte(dsn[:strings.IndexByte(dsn, '?')], '/')
	_, err := pgx.Connect(context.Background(), dsn[:i]+"/no_such_db_pgproxy"+dsn[strings.IndexByte(dsn, '?'):])
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "3D000" {
		t.Fatalf("err = %v, want invalid_catalog_name", err)
	}
}

// Params mark every upstream session; OnNotice sees the server's notices
// and keeps the ones it returns false for from the client.
func TestParamsAndNotices(t *testing.T) {
	var seen atomic.Int32
	dsn, _ := schema(t, pgproxy.Config{
		Params: map[string]string{"pgproxytest.mark": "m1"},
		OnNotice: func(_ *pgproxy.Session, n *pgproto3.NoticeResponse) bool {
			seen.Add(1)
			return !strings.HasPrefix(n.Message, "hidden")
		},
	})
	var got []string
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { got = append(got, n.Message) }
	c, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	var mark string
	if err := c.QueryRow(context.Background(), "select current_setting('pgproxytest.mark')").Scan(&mark); err != nil || mark != "m1" {
		t.Errorf("mark = %q, %v", mark, err)
	}
	_, err = c.Exec(context.Background(), "do $$ begin raise warning 'hidden one'; raise notice 'shown one'; end $$")
	if err != nil {
		t.Fatal(err)
	}
	if seen.Load() != 2 || len(got) != 1 || got[0] != "shown one" {
		t.Errorf("hook saw %d notices, client got %q", seen.Load(), got)
	}
}

// A refused statement never reaches the server; the client gets an error
// carrying the reason, and the session goes on.
func TestRefuse(t *testing.T) {
	ctx := context.Background()
	dsn, direct := schema(t, pgproxy.Config{Refuse: func(_ *pgproxy.Session, st pgproxy.Statement) string {
		if st.CopyProgram {
			return "no programs here, it's a test"
		}
		return ""
	}})
	c := connect(t, dsn)
	cases := []struct {
		q    string
		args []any
	}{
		{"copy t to program 'cat > /dev/null'", nil},
		{"copy t to program 'cat > /dev/null'", []any{pgx.QueryExecModeDescribeExec}}, // extended protocol
		{"insert into t values (1, 'a'); copy t from program 'echo 2'", nil},
	}
	for _, tc := range cases {
		q, args := tc.q, tc.args
		{
			_, err := c.Exec(ctx, q, args...)
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) || pgErr.Code != "42501" || pgErr.Message != "no programs here, it's a test" {
				t.Errorf("%q: err = %v, want the refusal", q, err)
			}
		}
	}
	var n int
	if err := direct.QueryRow(ctx, "select count(*) from "+schemaOf(t, direct)+".t").Scan(&n); err != nil || n != 0 {
		t.Errorf("refused statements ran: %d rows, %v", n, err)
	}
	if _, err := c.Exec(ctx, "insert into t values ($1, 'b')", 2); err != nil {
		t.Errorf("the session did not go on: %v", err)
	}
}
