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
	"regexp"
	"slices"
	"strconv"
	"strings"

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
	cfg, err := parseDSN(dsn)
	if err != nil {
		return err
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

// parseDSN parses a libpq DSN. A URL of another scheme is refused up front:
// pgconn would read it as keyword/value and echo it mangled.
func parseDSN(dsn string) (*pgconn.Config, error) {
	if u, err := url.Parse(dsn); err == nil && strings.Contains(dsn, "://") &&
		u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return nil, fmt.Errorf("bad DSN: scheme %q is not PostgreSQL; want postgres://USER@HOST:PORT/DATABASE", u.Scheme)
	}
	cfg, err := pgconn.ParseConfig(dsn) // its errors mask the password
	if err != nil {
		return nil, dsnError(err)
	}
	return cfg, nil
}

// goNumberError is the strconv wording pgconn passes on for a setting that
// is not a number: (strconv.ParseInt: parsing "abc": invalid syntax).
var goNumberError = regexp.MustCompile(`\(?strconv\.\w+: parsing ("[^"]*"): (invalid syntax|value out of range)\)?`)

// dsnError is a DSN the driver refused, in plain words: no Go function
// names.
func dsnError(err error) error {
	msg := goNumberError.ReplaceAllStringFunc(err.Error(), func(m string) string {
		sub := goNumberError.FindStringSubmatch(m)
		if sub[2] == "value out of range" {
			return "(" + sub[1] + " is out of range)"
		}
		return "(" + sub[1] + " is not a number)"
	})
	return errors.New("bad DSN: " + msg)
}

// unreachableHint is what to do when no PostgreSQL answers at the DSN.
const unreachableHint = "is PostgreSQL running there? fix --dsn (or DATABASE_URL, PG* variables), or leave them unset to use an embedded server"

// connectError says in one line where the connection failed, why (once:
// pgconn repeats the reason for each TLS and plain attempt) and what to do.
func connectError(cfg *pgconn.Config, err error) error {
	where := dbAddress(cfg)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return fmt.Errorf("database at %s refused the connection: %s; check the user, password and database name of the DSN", where, pgErr.Message)
	}
	var reasons []string
	for _, e := range attempts(err) {
		if r := dialReason(e); !slices.Contains(reasons, r) {
			reasons = append(reasons, r)
		}
	}
	return fmt.Errorf("database unreachable at %s: %s; %s", where, strings.Join(reasons, "; "), unreachableHint)
}

// attempts are the errors of pgconn's connection attempts.
func attempts(err error) []error {
	var ce *pgconn.ConnectError
	if !errors.As(err, &ce) {
		return []error{err}
	}
	if joined, ok := ce.Unwrap().(interface{ Unwrap() []error }); ok {
		return joined.Unwrap()
	}
	return []error{ce.Unwrap()}
}

// dialReason is the network's reason ("connection refused", "i/o timeout")
// without the address pgconn and net each put in front of it.
func dialReason(err error) string {
	var op *net.OpError
	if !errors.As(err, &op) || op.Err == nil {
		return strings.Join(strings.Fields(err.Error()), " ")
	}
	var sys *os.SyscallError
	if errors.As(op.Err, &sys) {
		return sys.Err.Error()
	}
	return op.Err.Error()
}

// dbAddress is the DSN's first server, as host:port or its unix socket.
func dbAddress(cfg *pgconn.Config) string {
	if strings.HasPrefix(cfg.Host, "/") {
		return fmt.Sprintf("%s/.s.PGSQL.%d", cfg.Host, cfg.Port)
	}
	return net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
}

func isLoopbackHost(h string) bool {
	if strings.HasPrefix(h, "/") || h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// database owns the run's schema: it recreates it per round and applies
// the setup SQL. The handler reaches it through the run's proxy, which
// counts its writes. The setup, the --effect-sql counts and the handler's
// sessions run as the run's role (see role.go) when there is one; the
// admin session, the DSN's user, only creates and drops the schema and
// the role.
type database struct {
	dsn    string
	cfg    *pgconn.Config
	schema string
	acfg   *pgx.ConnConfig // the admin session's, to reconnect after a loss
	admin  *pgx.Conn
	guard  *schemaGuard
	role   *runRole  // nil: the DSN's user does it all
	setup  *pgx.Conn // the role's session, else admin
	// seeded counts each table's rows after the setup, when countSeeds
	// asks for it (see tablerows.go).
	countSeeds bool
	seeded     map[string]int64
}

func openDatabase(ctx context.Context, dsn string) (*database, error) {
	cfg, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	acfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, dsnError(err)
	}
	db := &database{dsn: dsn, cfg: cfg, schema: "idemcheck_rt_" + randomHex(5), acfg: acfg}
	acfg.RuntimeParams["application_name"] = adminAppName(db.schema)
	onNotice := func(_ *pgconn.PgConn, n *pgconn.Notice) {
		if db.guard != nil {
			db.guard.notice("the setup SQL", n.Message)
		}
	}
	acfg.OnNotice = onNotice
	if db.admin, err = pgx.ConnectConfig(ctx, acfg); err != nil {
		return nil, connectError(cfg, err)
	}
	db.sweepStaleSchemas(ctx)
	db.sweepStaleRoles(ctx)
	role, why := createRole(ctx, db.admin, db.schema)
	if role != nil {
		if db.setup, err = role.connect(ctx, dsn, onNotice); err != nil {
			_ = dropRole(ctx, db.admin, role.name)
			role, why = nil, "the server refused a login as the run's role ("+loginReason(err)+"); allow logins with a password from loopback in pg_hba.conf"
		}
	}
	if db.role = role; role == nil {
		db.setup = db.admin
	}
	db.guard = installGuard(ctx, db.admin, db.schema, role)
	db.guard.noRole = why
	return db, nil
}

// loginReason is the server's reason for refusing a login, in one line.
func loginReason(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return shorten(pgErr.Message, 160)
	}
	return shorten(err.Error(), 160)
}

// resetSchema drops and recreates the schema (owned by the run's role),
// then applies setup inside it in one transaction of the setup session.
func (db *database) resetSchema(ctx context.Context, setup string) error {
	return retryStaleTrigger(func() error { return db.resetSchemaOnce(ctx, setup) })
}

func (db *database) resetSchemaOnce(ctx context.Context, setup string) error {
	db.terminateLockHolders(ctx)
	q := pgx.Identifier{db.schema}.Sanitize()
	err := pgx.BeginFunc(ctx, db.admin, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "drop schema if exists "+q+" cascade"); err != nil {
			return fmt.Errorf("drop schema %s: %w", db.schema, err)
		}
		create := "create schema " + q
		if db.role != nil {
			create += " authorization " + pgx.Identifier{db.role.name}.Sanitize()
		}
		if _, err := tx.Exec(ctx, create); err != nil {
			return fmt.Errorf("create schema %s: %w", db.schema, err)
		}
		if c := schemaComment(); c != "" {
			if _, err := tx.Exec(ctx, "comment on schema "+q+" is "+quoteLiteral(c)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	tx, err := db.setup.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, "set local search_path to "+q); err != nil {
		return err
	}
	if db.role == nil {
		// The setup runs as part of the run: the schema guard watches it.
		if _, err := tx.Exec(ctx, "select set_config($1, $2, true)", runGUC, db.guard.runID); err != nil {
			return err
		}
	}
	if strings.TrimSpace(setup) != "" {
		if _, err := tx.Conn().PgConn().Exec(ctx, setup).ReadAll(); err != nil {
			if gerr := db.guard.check(db.schema); gerr != nil {
				return gerr // refused by the schema guard: say what it touched
			}
			var pgErr *pgconn.PgError
			if db.role != nil && errors.As(err, &pgErr) && pgErr.Code == "42501" {
				return fmt.Errorf("setup SQL: %s: the setup runs as the run's role %s, which may only change the run's schema (no superuser, no other schema)", shorten(pgErr.Message, 200), db.role.name)
			}
			return fmt.Errorf("setup SQL: %w", shortened(err))
		}
	}
	// Setup that changed something outside the schema is rolled back.
	if err := db.guard.check(db.schema); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	if db.countSeeds {
		db.seeded, _ = db.tableRows(ctx) // only advice depends on it
	}
	return nil
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
	err := retryStaleTrigger(func() error {
		_, err := db.admin.Exec(ctx, "drop schema if exists "+pgx.Identifier{db.schema}.Sanitize()+" cascade")
		return err
	})
	if err != nil {
		return fmt.Errorf("drop schema %s: %w", db.schema, err)
	}
	return nil
}

func (db *database) close(ctx context.Context, keep bool) error {
	if err := db.reconnect(ctx); err != nil {
		return err // nothing to drop it with; the next run sweeps it
	}
	var err error
	if keep {
		// A kept schema is the user's now: no later run may sweep it.
		_, err = db.admin.Exec(ctx, "comment on schema "+pgx.Identifier{db.schema}.Sanitize()+" is "+quoteLiteral(schemaKeptComment))
	} else {
		err = db.dropSchema(ctx)
	}
	db.guard.remove(ctx, db.admin)
	if db.role != nil {
		db.setup.Close(ctx)
		// What the role owns in a kept schema becomes the DSN user's.
		_, _ = db.admin.Exec(ctx, "reassign owned by "+pgx.Identifier{db.role.name}.Sanitize()+" to current_user")
		if rerr := dropRole(ctx, db.admin, db.role.name); rerr != nil && err == nil {
			err = fmt.Errorf("drop role %s: %w", db.role.name, rerr)
		}
	}
	db.admin.Close(ctx)
	return err
}

// handlerEnv is the database part of the handler's environment: DATABASE_URL
// with search_path set to the schema, and the matching PG* variables, all
// naming the run's proxy (plaintext on loopback) instead of the server.
func (db *database) handlerEnv(proxy *net.TCPAddr) []string {
	cfg := db.cfg
	opts := "-csearch_path=" + db.schema
	if own := strings.TrimSpace(cfg.RuntimeParams["options"]); own != "" {
		// Keep the DSN's own settings (statement_timeout, …); the
		// search_path comes last, so it wins over one set there.
		opts = own + " " + opts
	}
	// The handler logs in as the run's role; the proxy knows its password.
	user, password := cfg.User, cfg.Password
	if db.role != nil {
		user, password = db.role.name, ""
	}
	u := url.URL{Scheme: "postgres", Path: "/" + cfg.Database}
	if password != "" {
		u.User = url.UserPassword(user, password)
	} else {
		u.User = url.User(user)
	}
	q := url.Values{}
	host, port := proxy.IP.String(), strconv.Itoa(proxy.Port)
	u.Host = net.JoinHostPort(host, port)
	sslmode := "disable"
	q.Set("sslmode", sslmode)
	q.Set("options", opts)
	// libpq decodes %20 but not '+' in a URL; Encode escapes a real '+'.
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20")
	env := []string{
		"DATABASE_URL=" + u.String(),
		"PGHOST=" + host,
		"PGPORT=" + port,
		"PGUSER=" + user,
		"PGDATABASE=" + cfg.Database,
		"PGOPTIONS=" + opts,
		"PGSSLMODE=" + sslmode,
	}
	if password != "" {
		env = append(env, "PGPASSWORD="+password)
	}
	return env
}

// quoteLiteral quotes s as an SQL string literal (COMMENT takes no
// parameters).
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(errors.New("crypto/rand failed"))
	}
	return hex.EncodeToString(b)
}
