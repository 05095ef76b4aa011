//go:build unix

package restarttest

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

	"github.com/idemcheck/idemcheck/internal/testenv"
)

// The embedded default: a throwaway cluster from the installed binaries,
// reachable over TCP loopback and its unix socket, gone after Stop.
func TestEmbeddedServer(t *testing.T) {
	t.Parallel()
	testenv.SkipIfShort(t, "starts PostgreSQL")
	if _, err := FindServerBinaries(); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pg, err := StartEmbedded(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, dsn := range []string{pg.DSN(), pg.SocketDSN()} {
		if err := CheckLoopback(dsn); err != nil {
			t.Error(err)
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
	// TestMain starts the tests' server in the background; its lookup reads
	// PATH and serverBinGlob, which this test changes.
	<-testDSNReady
	t.Setenv("PATH", t.TempDir())
	defer func(g string) { serverBinGlob = g }(serverBinGlob)
	serverBinGlob = t.TempDir() + "/*/bin"
	_, err := StartEmbedded(context.Background())
	if err != ErrNoServerBinaries {
		t.Fatalf("err = %v, want ErrNoServerBinaries", err)
	}
	if !strings.Contains(err.Error(), "--dsn") || !strings.Contains(err.Error(), "install") {
		t.Errorf("the error must say how to install a server or pass --dsn: %v", err)
	}
}

func TestRemoveStaleEmbedded(t *testing.T) {
	// The tests' server, started in the background, must not land in (or
	// be swept from) this test's TMPDIR.
	<-testDSNReady
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
	RemoveStaleEmbedded()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale directory kept: %v", err)
	}
	for _, dir := range []string{live, starting} {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("%s removed: %v", dir, err)
		}
	}
}
