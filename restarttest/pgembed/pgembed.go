//go:build unix

package pgembed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idemcheck/idemcheck/internal/childenv"
	"github.com/idemcheck/idemcheck/internal/loopback"
	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// ErrNoBinaries is returned by Start when neither PATH nor
// /usr/lib/postgresql/*/bin holds initdb and postgres.
var ErrNoBinaries = errors.New("no PostgreSQL server binaries (initdb, postgres) found on PATH or under /usr/lib/postgresql/*/bin: " +
	"install them (apt-get install postgresql, brew install postgresql) or pass --dsn")

// Server is a throwaway PostgreSQL cluster in a temporary directory,
// listening on a unix socket and a random loopback port with trust
// authentication. Stop removes everything.
type Server struct {
	Dir    string // temporary directory: data/ and the unix socket
	Port   int
	User   string // database superuser: postgres
	binDir string
	cmd    *exec.Cmd
	log    *procgroup.Tail
	exited chan struct{}
}

// DSN is a libpq URL for the embedded server over TCP loopback.
func (e *Server) DSN() string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", e.User, e.Port)
}

// SocketDSN is a libpq URL for the embedded server over its unix socket.
func (e *Server) SocketDSN() string {
	return fmt.Sprintf("postgres://%s@/postgres?host=%s&port=%d&sslmode=disable", e.User, e.Dir, e.Port)
}

// serverBinGlob is where distributions install the server binaries.
var serverBinGlob = "/usr/lib/postgresql/*/bin"

// FindBinaries returns the directory holding initdb and postgres.
func FindBinaries() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		for _, cand := range []string{p, resolveLink(p)} {
			dir := filepath.Dir(cand)
			if isExecutable(filepath.Join(dir, "postgres")) {
				return dir, nil
			}
		}
	}
	dirs, _ := filepath.Glob(serverBinGlob)
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, dir := range dirs {
		if isExecutable(filepath.Join(dir, "initdb")) && isExecutable(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
	}
	return "", ErrNoBinaries
}

// Start initializes and starts a throwaway cluster. When running as
// root the server runs as the `postgres` OS user, because PostgreSQL refuses
// to run as root.
func Start(ctx context.Context) (*Server, error) {
	binDir, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	cred, err := serverCredential()
	if err != nil {
		return nil, err
	}
	RemoveStale()
	dir, err := os.MkdirTemp(parentDir(cred), "idemcheck-pg-")
	if err != nil {
		return nil, fmt.Errorf("embedded PostgreSQL: %w", err)
	}
	e := &Server{Dir: dir, User: "postgres", binDir: binDir, log: procgroup.NewTail(8 << 10)}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("embedded PostgreSQL: %w", err)
		}
	}
	if err := e.initdb(ctx, cred); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// The port is picked free and then handed over; another process may take
	// it in between, so try a few.
	for try := 0; ; try++ {
		err = e.start(ctx, cred)
		if err == nil {
			return e, nil
		}
		if try == 3 || ctx.Err() != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
}

func (e *Server) initdb(ctx context.Context, cred *syscall.Credential) error {
	cmd := exec.CommandContext(ctx, filepath.Join(e.binDir, "initdb"),
		"-D", filepath.Join(e.Dir, "data"), "-U", e.User, "-A", "trust",
		"-E", "UTF8", "--no-locale", "--no-sync")
	cmd.Env = serverEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	cmd.Dir = e.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("embedded PostgreSQL: initdb failed: %v: %s", err, lastLine(string(out)))
	}
	return nil
}

func (e *Server) start(ctx context.Context, cred *syscall.Credential) error {
	port, err := loopback.FreePort()
	if err != nil {
		return fmt.Errorf("embedded PostgreSQL: %w", err)
	}
	e.Port = port
	e.log = procgroup.NewTail(8 << 10)
	cmd := exec.Command(filepath.Join(e.binDir, "postgres"),
		"-D", filepath.Join(e.Dir, "data"), "-p", strconv.Itoa(port), "-k", e.Dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
		"-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200", "-c", "logging_collector=off")
	cmd.Env = serverEnv()
	attr := &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	procgroup.SetParentDeathSignal(attr)
	cmd.SysProcAttr = attr
	cmd.Dir = e.Dir
	cmd.Stdout, cmd.Stderr = e.log, e.log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("embedded PostgreSQL: %w", err)
	}
	e.cmd = cmd
	e.exited = make(chan struct{})
	go func() { _ = cmd.Wait(); close(e.exited) }()

	deadline := time.Now().Add(30 * time.Second)
	for {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		c, err := pgconn.Connect(cctx, e.SocketDSN())
		cancel()
		if err == nil {
			c.Close(context.Background())
			return nil
		}
		select {
		case <-e.exited:
			return fmt.Errorf("embedded PostgreSQL did not start: %s", lastLine(e.log.String()))
		case <-ctx.Done():
			e.Stop()
			return ctx.Err()
		case <-time.After(30 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			e.Stop()
			return fmt.Errorf("embedded PostgreSQL did not accept connections within 30s: %s", lastLine(e.log.String()))
		}
	}
}

// Stop shuts the server down (fast shutdown, then SIGKILL) and removes its
// directory. It is safe to call more than once.
func (e *Server) Stop() {
	if e == nil {
		return
	}
	if e.cmd != nil && e.cmd.Process != nil {
		_ = e.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-e.exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
			<-e.exited
		}
	}
	if e.Dir != "" {
		os.RemoveAll(e.Dir)
	}
}

// serverCredential returns the postgres OS user when running as root.
func serverCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, errors.New("embedded PostgreSQL refuses to run as root and there is no `postgres` OS user: create one (useradd postgres) or pass --dsn")
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// parentDir is where the cluster's directory goes: the temporary
// directory, unless the server runs as another user who cannot reach it.
// Why: a test harness or a user may point TMPDIR into a directory only
// root can enter (mode 0700); initdb, running as postgres, then fails
// with "permission denied" before it starts. /tmp is world-searchable.
func parentDir(cred *syscall.Credential) string {
	dir := os.TempDir()
	if cred == nil || reachableByOthers(dir) {
		return dir
	}
	return "/tmp"
}

// reachableByOthers reports whether every directory from the root down to
// dir can be entered by any user.
func reachableByOthers(dir string) bool {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		st, err := os.Stat(dir)
		if err != nil || st.Mode().Perm()&0o001 == 0 {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return true
		}
		dir = parent
	}
}

// serverEnv is the environment of initdb and postgres: an allow-list
// (PATH, HOME, TZ, TMPDIR…), so neither the caller's PG* variables, which
// would steer them, nor the HMAC secret, which a handler could read from
// the server's /proc/PID/environ, reach the server. LC_ALL=C last.
func serverEnv() []string {
	return append(childenv.Environ(), "LC_ALL=C")
}

func resolveLink(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

func versionOf(binDir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return v
}

// RemoveStale removes the directories of embedded servers whose
// idemcheck died without cleaning up (kill -9): the kernel then killed the
// server, which left its postmaster.pid naming a dead process.
func RemoveStale() {
	var dirs []string
	for _, parent := range []string{os.TempDir(), "/tmp"} {
		found, _ := filepath.Glob(filepath.Join(parent, "idemcheck-pg-*"))
		dirs = append(dirs, found...)
	}
	for _, dir := range dirs {
		if isStale(dir) {
			os.RemoveAll(dir)
		}
	}
}

func isStale(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid"))
	if err != nil {
		// Not started yet, or being set up by another run: only a day-old
		// directory is taken as abandoned.
		st, err := os.Stat(dir)
		return err == nil && time.Since(st.ModTime()) > 24*time.Hour
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
	if err != nil || pid <= 0 {
		return false
	}
	return procgroup.Dead(pid)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
