package restarttest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// pgEnvVars are the libpq variables that, when set, make a DSN.
var pgEnvVars = []string{"PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE"}

// DSNFromEnv returns the DSN the environment names: DATABASE_URL, else "" with
// ok=true when any PG* variable is set (pgx reads them itself), else ok=false.
func DSNFromEnv() (dsn string, ok bool) {
	if v := os.Getenv("DATABASE_URL"); v != "" {
		return v, true
	}
	for _, name := range pgEnvVars {
		if os.Getenv(name) != "" {
			return "", true
		}
	}
	return "", false
}

// CheckLoopback refuses a DSN whose hosts are not loopback addresses or unix
// sockets: restart-test creates and drops schemas and must never be aimed at
// production by accident.
func CheckLoopback(dsn string) error {
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("bad DSN: %w", err)
	}
	hosts := []string{cfg.Host}
	for _, fb := range cfg.Fallbacks {
		hosts = append(hosts, fb.Host)
	}
	for _, h := range hosts {
		if !isLoopbackHost(h) {
			return fmt.Errorf("database host %q is not loopback or a unix socket; pass --allow-remote if you really mean it", h)
		}
	}
	return nil
}

func isLoopbackHost(h string) bool {
	if strings.HasPrefix(h, "/") || h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// database owns the run's schema: it recreates it per round, applies the
// setup SQL, installs the write-notify triggers and listens for them.
type database struct {
	dsn    string
	cfg    *pgconn.Config
	schema string
	admin  *pgx.Conn
	listen *listener
}

func openDatabase(ctx context.Context, dsn string, onWrite func(pid uint32)) (*database, error) {
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("bad DSN: %w", err)
	}
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("database unreachable: %w", err)
	}
	db := &database{dsn: dsn, cfg: cfg, schema: "idemcheck_rt_" + randomHex(5), admin: admin}
	l, err := startListener(ctx, dsn, db.schema, onWrite)
	if err != nil {
		admin.Close(ctx)
		return nil, fmt.Errorf("database unreachable: %w", err)
	}
	db.listen = l
	return db, nil
}

// resetSchema drops and recreates the schema, applies setup inside it and
// installs a write trigger on every table the setup created, all in one
// transaction (one commit per round keeps the harness cheap).
func (db *database) resetSchema(ctx context.Context, setup string) error {
	db.terminateLockHolders(ctx)
	tx, err := db.admin.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	q := pgx.Identifier{db.schema}.Sanitize()
	if _, err := tx.Exec(ctx, "drop schema if exists "+q+" cascade"); err != nil {
		return fmt.Errorf("drop schema %s: %w", db.schema, err)
	}
	if _, err := tx.Exec(ctx, "create schema "+q); err != nil {
		return fmt.Errorf("create schema %s: %w", db.schema, err)
	}
	if _, err := tx.Exec(ctx, "set local search_path to "+q); err != nil {
		return err
	}
	if strings.TrimSpace(setup) != "" {
		if _, err := tx.Conn().PgConn().Exec(ctx, setup).ReadAll(); err != nil {
			return fmt.Errorf("setup SQL: %w", err)
		}
	}
	if _, err := tx.Conn().PgConn().Exec(ctx, triggerSQL(db.schema)).ReadAll(); err != nil {
		return fmt.Errorf("install write triggers: %w", err)
	}
	return tx.Commit(ctx)
}

// triggerSQL installs, on every table of the schema, a row trigger that
// sends NOTIFY on commit. PostgreSQL folds identical notifications of one
// transaction into one, so each committed writing transaction is one write.
func triggerSQL(schema string) string {
	q := pgx.Identifier{schema}.Sanitize()
	lit := "'" + schema + "'"
	return `
create function ` + q + `.idemcheck_notify_write() returns trigger language plpgsql as $f$
begin
  perform pg_notify(` + lit + `, txid_current()::text);
  return null;
end $f$;
do $d$
declare t record;
begin
  for t in
    select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ` + lit + ` and c.relkind in ('r', 'p') and not c.relispartition
  loop
    execute format('create trigger idemcheck_write after insert or update or delete on %I.%I for each row execute function %I.idemcheck_notify_write()', ` + lit + `, t.relname, ` + lit + `);
  end loop;
end $d$`
}

// terminateLockHolders ends the connections that still hold locks in the
// schema: those of killed handlers, whose backends may not have noticed yet.
func (db *database) terminateLockHolders(ctx context.Context) {
	_, _ = db.admin.Exec(ctx, `
select pg_terminate_backend(l.pid)
from pg_locks l
join pg_class c on c.oid = l.relation
join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and l.pid <> pg_backend_pid()
group by l.pid`, db.schema)
}

// dropSchema removes the schema.
func (db *database) dropSchema(ctx context.Context) error {
	db.terminateLockHolders(ctx)
	_, err := db.admin.Exec(ctx, "drop schema if exists "+pgx.Identifier{db.schema}.Sanitize()+" cascade")
	if err != nil {
		return fmt.Errorf("drop schema %s: %w", db.schema, err)
	}
	return nil
}

func (db *database) close(ctx context.Context, keep bool) error {
	var err error
	if !keep {
		err = db.dropSchema(ctx)
	}
	db.listen.close()
	db.admin.Close(ctx)
	return err
}

// handlerEnv is the database part of the handler's environment: DATABASE_URL
// with search_path set to the schema, and the matching PG* variables.
func (db *database) handlerEnv() []string {
	cfg := db.cfg
	opts := "-csearch_path=" + db.schema
	if own := strings.TrimSpace(cfg.RuntimeParams["options"]); own != "" {
		// Keep the DSN's own settings (statement_timeout, …); the
		// search_path comes last, so it wins over one set there.
		opts = own + " " + opts
	}
	u := url.URL{Scheme: "postgres", Path: "/" + cfg.Database}
	if cfg.Password != "" {
		u.User = url.UserPassword(cfg.User, cfg.Password)
	} else {
		u.User = url.User(cfg.User)
	}
	q := url.Values{}
	port := strconv.Itoa(int(cfg.Port))
	if strings.HasPrefix(cfg.Host, "/") {
		q.Set("host", cfg.Host)
		q.Set("port", port)
	} else {
		u.Host = net.JoinHostPort(cfg.Host, port)
	}
	sslmode := "disable"
	if cfg.TLSConfig != nil {
		sslmode = "prefer"
		if len(cfg.Fallbacks) == 0 {
			sslmode = "require"
		}
	}
	q.Set("sslmode", sslmode)
	q.Set("options", opts)
	// libpq decodes %20 but not '+' in a URL; Encode escapes a real '+'.
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20")
	env := []string{
		"DATABASE_URL=" + u.String(),
		"PGHOST=" + cfg.Host,
		"PGPORT=" + port,
		"PGUSER=" + cfg.User,
		"PGDATABASE=" + cfg.Database,
		"PGOPTIONS=" + opts,
		"PGSSLMODE=" + sslmode,
	}
	if cfg.Password != "" {
		env = append(env, "PGPASSWORD="+cfg.Password)
	}
	return env
}

// listener receives the write notifications on its own connection. Sync
// makes sure every write committed before the call has been seen, which
// lets the provider hold an effect request until a pending db-write kill
// has landed.
type listener struct {
	conn    *pgconn.PgConn
	syncReq chan chan struct{}
	stop    context.CancelFunc
	done    chan struct{}

	mu         sync.Mutex
	cancelWait context.CancelFunc
	err        error
}

func startListener(ctx context.Context, dsn, channel string, onWrite func(pid uint32)) (*listener, error) {
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.OnNotification = func(_ *pgconn.PgConn, n *pgconn.Notification) {
		if n.Channel == channel {
			onWrite(n.PID)
		}
	}
	conn, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "listen "+pgx.Identifier{channel}.Sanitize()).ReadAll(); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	loopCtx, stop := context.WithCancel(context.Background())
	l := &listener{conn: conn, syncReq: make(chan chan struct{}, 16), stop: stop, done: make(chan struct{})}
	go l.loop(loopCtx)
	return l, nil
}

func (l *listener) loop(ctx context.Context) {
	defer close(l.done)
	for ctx.Err() == nil {
		waitCtx, cancel := context.WithCancel(ctx)
		l.mu.Lock()
		l.cancelWait = cancel
		l.mu.Unlock()
		select {
		case done := <-l.syncReq:
			cancel()
			// Notifications committed before this query are delivered
			// before its result.
			_, err := l.conn.Exec(ctx, "select 1").ReadAll()
			close(done)
			if err != nil && ctx.Err() == nil {
				l.fail(err)
				return
			}
			continue
		default:
		}
		err := l.conn.WaitForNotification(waitCtx)
		cancel()
		if err != nil && waitCtx.Err() == nil && ctx.Err() == nil {
			l.fail(err)
			return
		}
	}
}

func (l *listener) fail(err error) {
	l.mu.Lock()
	l.err = err
	l.mu.Unlock()
	// Release anyone waiting in Sync.
	for {
		select {
		case done := <-l.syncReq:
			close(done)
		default:
			return
		}
	}
}

// Sync returns once every notification committed before the call has been
// handled.
func (l *listener) Sync(ctx context.Context) {
	select {
	case <-l.done:
		return
	default:
	}
	done := make(chan struct{})
	l.syncReq <- done
	l.mu.Lock()
	if l.cancelWait != nil {
		l.cancelWait()
	}
	l.mu.Unlock()
	select {
	case <-done:
	case <-l.done:
	case <-ctx.Done():
	}
}

func (l *listener) close() {
	l.stop()
	<-l.done
	l.conn.Close(context.Background())
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(errors.New("crypto/rand failed"))
	}
	return hex.EncodeToString(b)
}

// freeLoopbackPort picks a TCP port that is free right now.
func freeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
