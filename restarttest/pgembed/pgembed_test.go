//go:build unix

package pgembed

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idemcheck/idemcheck/internal/testenv"
)

// The embedded default: a throwaway cluster from the installed binaries,
// reachable over TCP loopback and its unix socket, gone after Stop.
func TestEmbeddedServer(t *testing.T) {
	t.Parallel()
	testenv.SkipIfShort(t, "starts PostgreSQL")
	if _, err := FindBinaries(); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pg, err := Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, dsn := range []string{pg.DSN(), pg.SocketDSN()} {
		if cfg, err := pgconn.ParseConfig(dsn); err != nil || cfg.Host != "127.0.0.1" && cfg.Host != pg.Dir {
			t.Errorf("%s: not loopback or the server's socket (%v)", dsn, err)
		}
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatalf("%s: %v", dsn, err)
		}
		var user string
		if err := conn.QueryRow(ctx, "select current_user").Scan(&user); err != nil || user != "postgres" {
			t.Errorf("current_user %q %v", user, err)
		}
		conn.Close(ctx)
	}
	if os.Geteuid() == 0 {
		st, err := os.Stat(pg.Dir + "/data")
		if err != nil {
			t.Fatal(err)
		}
		if uid := statUID(st); uid == 0 {
			t.Error("data directory owned by root: the server must run as the postgres user")
		}
	}
	dir, port := pg.Dir, pg.Port
	pg.Stop()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s left behind: %v", dir, err)
	}
	if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second); err == nil {
		c.Close()
		t.Errorf("port %d still accepts connections after Stop", port)
	}
	pg.Stop() // twice is harmless
}

func TestNoServerBinaries(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	defer func(g string) { serverBinGlob = g }(serverBinGlob)
	serverBinGlob = t.TempDir() + "/*/bin"
	_, err := Start(context.Background())
	if err != ErrNoBinaries {
		t.Fatalf("err = %v, want ErrNoBinaries", err)
	}
	if !strings.Contains(err.Error(), "--dsn") || !strings.Contains(err.Error(), "install") {
		t.Errorf("the error must say how to install a server or pass --dsn: %v", err)
	}
}

func TestRemoveStaleEmbedded(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	mk := func(name, pid string) string {
		dir := filepath.Join(os.TempDir(), name)
		if err := os.MkdirAll(filepath.Join(dir, "data"), 0o700); err != nil {
			t.Fatal(err)
		}
		if pid != "" {
			if err := os.WriteFile(filepath.Join(dir, "data", "postmaster.pid"), []byte(pid+"\n/x\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := mk("idemcheck-pg-stale", strconv.Itoa(dead.Process.Pid))
	live := mk("idemcheck-pg-live", strconv.Itoa(os.Getpid()))
	starting := mk("idemcheck-pg-starting", "")
	// A postmaster whose idemcheck was killed with SIGKILL can linger as a
	// zombie: kill(pid, 0) succeeds on it, yet it is dead.
	zombie := exec.Command("true")
	if err := zombie.Start(); err != nil {
		t.Fatal(err)
	}
	defer zombie.Wait()
	waitZombie(t, zombie.Process.Pid)
	undead := mk("idemcheck-pg-zombie", strconv.Itoa(zombie.Process.Pid))
	RemoveStale()
	for _, dir := range []string{stale, undead} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("stale directory %s kept: %v", dir, err)
		}
	}
	for _, dir := range []string{live, starting} {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("%s removed: %v", dir, err)
		}
	}
}

// waitZombie waits until pid, a child not yet waited for, has exited.
func waitZombie(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			t.Skip("no /proc: cannot see a zombie")
		}
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			return
		}
	}
	t.Fatalf("pid %d did not become a zombie", pid)
}

// The embedded server runs without the caller's secret: not in its
// postmaster's environment, not readable by a superuser session asking
// the server for its own /proc/self/environ.
func TestEmbeddedServerHasNoSecret(t *testing.T) {
	testenv.SkipIfShort(t, "starts PostgreSQL")
	if _, err := FindBinaries(); err != nil {
		t.Skip(err)
	}
	const secret = "real-secret-of-the-caller-8d1f"
	t.Setenv("IDEMPOTENCY_HMAC_KEY", secret)
	t.Setenv("SOME_OTHER_TOKEN", secret)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pg, err := Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Stop()
	environ, err := os.ReadFile("/proc/" + strconv.Itoa(pg.cmd.Process.Pid) + "/environ")
	if err != nil {
		t.Skip("cannot read the postmaster's environment: ", err)
	}
	if strings.Contains(string(environ), secret) {
		t.Errorf("the postmaster's environment holds the secret: %q", environ)
	}
	if !strings.Contains(string(environ), "PATH=") {
		t.Errorf("the postmaster's environment lost PATH: %q", environ)
	}
	conn, err := pgx.Connect(ctx, pg.DSN())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var backend []byte
	if err := conn.QueryRow(ctx, "select pg_read_binary_file('/proc/self/environ')").Scan(&backend); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(backend), secret) || len(backend) == 0 {
		t.Errorf("a backend's environment: %q", backend)
	}
}
