package restarttest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// liveProcesses returns the processes, not zombies, whose pid is in pids
// or whose process group is in pgids.
func liveProcesses(t *testing.T, pids, pgids []int) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc: cannot look for orphans")
	}
	var live []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so split
		// after its closing parenthesis.
		rest := string(stat[bytes.LastIndexByte(stat, ')')+2:])
		f := strings.Fields(rest)
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		pgrp, _ := strconv.Atoi(f[2])
		if slices.Contains(pids, pid) || slices.Contains(pgids, pgrp) {
			live = append(live, fmt.Sprintf("pid %d pgrp %d: %s", pid, pgrp, strings.TrimSpace(string(stat[:bytes.LastIndexByte(stat, ')')+1]))))
		}
	}
	return live
}

func readInts(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("handler did not record its processes: %v", err)
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// A handler that spawns sleeping grandchildren is killed as a whole group,
// at a kill point, at the timeout, and when it exits leaving a background
// job: after the run nothing it started is alive. Not parallel: an
// escapee is counted for whichever run's group ends first.
func TestNoOrphans(t *testing.T) {
	dir := t.TempDir()
	pids, pgids := filepath.Join(dir, "pids"), filepath.Join(dir, "pgids")
	record := fmt.Sprintf("echo $$ >> %s; sleep 300 & echo $! >> %s; (sleep 301 & echo $! >> %s); cat > /dev/null;", pgids, pids, pids)
	// timeout ends the hanging handler quickly; the others exit on their
	// own, and a bound they could meet under load would retry them (a
	// second escapee).
	type orphanCase struct {
		name, handler string
		kill          []KillPoint
		timeout       time.Duration
	}
	cases := []orphanCase{
		{"killed at time:150ms then timeout", record + " sleep 300", []KillPoint{{Kind: KillTime, Delay: 150 * time.Millisecond}}, 700 * time.Millisecond},
		{"exit 0 with a background job", record + " exit 0", []KillPoint{{Kind: KillNone}}, attemptLimit},
	}
	if _, err := exec.LookPath("setsid"); err == nil && runtime.GOOS == "linux" {
		escape := fmt.Sprintf("echo $$ >> %s; setsid sleep 302 & echo $! >> %s; sleep 0.2; exit 0", pgids, pids)
		cases = append(cases, orphanCase{"escaped with setsid", escape, []KillPoint{{Kind: KillNone}}, attemptLimit})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(pids)
			os.Remove(pgids)
			// No effect request: the run has nothing to judge (or, killed
			// on its way, lost it), but its processes must still be gone.
			rep, _ := Run(t.Context(), Config{
				Handler:     tc.handler,
				Message:     []byte(`{}`),
				KillPoints:  tc.kill,
				MaxAttempts: 2,
				Timeout:     tc.timeout,
				Backoff:     10 * time.Millisecond,
				DSN:         dsn(t),
			})
			if rep == nil {
				t.Fatal("no report")
			}
			spawned := readInts(t, pids)
			if len(spawned) == 0 {
				t.Fatal("handler spawned nothing")
			}
			if live := liveProcesses(t, spawned, readInts(t, pgids)); len(live) > 0 {
				t.Errorf("orphans after the run:\n%s", strings.Join(live, "\n"))
			}
			if len(rep.Rounds) != 1 || len(rep.Rounds[0].Attempts) == 0 {
				t.Fatalf("rounds %+v", rep.Rounds)
			}
			if strings.Contains(tc.name, "setsid") && rep.Rounds[0].EscapedProcesses != 1 {
				t.Errorf("escaped_processes = %d, want 1", rep.Rounds[0].EscapedProcesses)
			}
		})
	}
}

// A handler that hangs in the clean round fails on its own: no verdict,
// and it is not waited for.
func TestHangingHandlerIsReportedNotWaitedFor(t *testing.T) {
	t.Parallel()
	start := time.Now()
	rep, env := runNoVerdict(t, Config{
		Handler:     "sleep 3600",
		Message:     []byte(`{}`),
		KillPoints:  []KillPoint{{Kind: KillNone}},
		MaxAttempts: 2,
		Timeout:     300 * time.Millisecond,
		Backoff:     10 * time.Millisecond,
		DSN:         dsn(t),
	})
	// Not waited for: the handler would sleep an hour. (The bound leaves
	// room for a loaded machine's setup, which took 15 s once.)
	if took := time.Since(start); took > 3*time.Minute {
		t.Errorf("run took %s with a 300ms timeout", took)
	}
	r := rep.Rounds[0]
	if len(r.Attempts) != 2 {
		t.Fatalf("%d attempts, want 2", len(r.Attempts))
	}
	for _, a := range r.Attempts {
		if a.Outcome != OutcomeTimeout {
			t.Errorf("attempt %d outcome %s, want timeout", a.Index, a.Outcome)
		}
	}
	if acked := check(r, CheckAcked); acked.Passed || !strings.Contains(acked.Detail, "timed out") {
		t.Errorf("acked = %+v", acked)
	}
	if !strings.Contains(env.Error(), "the clean round failed on its own") || !strings.Contains(env.Error(), "timed out") {
		t.Errorf("error %q", env)
	}
}

// A handler that floods its output with binary garbage and crashes is
// reported with a bounded, printable tail.
func TestFloodingCrashingHandler(t *testing.T) {
	t.Parallel()
	rep, env := runNoVerdict(t, Config{
		Handler:     "head -c 3000000 /dev/urandom; head -c 3000000 /dev/urandom >&2; echo 'panic: boom' >&2; exit 3",
		Message:     []byte(`{}`),
		KillPoints:  []KillPoint{{Kind: KillNone}},
		MaxAttempts: 1,
		DSN:         dsn(t),
	})
	a := rep.Rounds[0].Attempts[0]
	if a.Outcome != OutcomeFailed || a.ExitCode == nil || *a.ExitCode != 3 {
		t.Errorf("attempt %+v, want failed with exit 3", a.Outcome)
	}
	if a.StdoutBytes != 3000000 || len(a.Stdout) > outputCap || len(a.Stderr) > outputCap {
		t.Errorf("stdout %d bytes (kept %d), stderr kept %d: want all counted, at most %d kept", a.StdoutBytes, len(a.Stdout), len(a.Stderr), outputCap)
	}
	// The clean round failed on its own: no verdict, the stderr tail says why.
	_, lines := a.OutputTail()
	shown := strings.Join(lines, "\n")
	tail := strings.Join(env.Tail, "\n")
	if !strings.Contains(env.Error(), "exit 3") || len(env.Tail) == 0 || !strings.Contains(shown, "panic: boom") {
		t.Errorf("error %q with tail %q, attempt's tail:\n%s", env, tail, shown)
	}
	for _, c := range shown + tail {
		if c < 0x20 && c != '\n' {
			t.Fatalf("output carries control character %q", c)
		}
	}
}

func TestHandlerNotFoundIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	_, err := Run(context.Background(), Config{
		Handler: "/nonexistent/idemcheck-handler",
		Message: []byte(`{}`),
		DSN:     dsn(t),
	})
	var env *EnvError
	if !errors.As(err, &env) || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("err = %v, want an EnvError saying not found", err)
	}
}

func TestUnreachableDatabaseIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	port, err := serverPort()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Config{
		Handler: "true",
		Message: []byte(`{}`),
		// sslmode=prefer: pgconn tries twice and reports both attempts.
		DSN: fmt.Sprintf("postgres://postgres:hunter2@127.0.0.1:%d/x?sslmode=prefer&connect_timeout=2", port),
	})
	var env *EnvError
	want := fmt.Sprintf("database unreachable at 127.0.0.1:%d: connection refused; is PostgreSQL running there? ", port)
	if !errors.As(err, &env) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %v, want an EnvError starting %q", err, want)
	}
	if msg := err.Error(); strings.Count(msg, "refused") != 1 || strings.Contains(msg, "\n") || strings.Contains(msg, "hunter2") {
		t.Errorf("err = %q, want one line, the reason once, no password", msg)
	}
}

// A server that answers but refuses says the server's reason and what to
// check, not that the database is unreachable.
func TestRefusedConnectionSaysWhatToCheck(t *testing.T) {
	t.Parallel()
	d := dsn(t)
	if u, err := url.Parse(d); err == nil && strings.HasPrefix(d, "postgres") {
		u.Path = "/idemcheck_nosuchdb"
		d = u.String()
	} else {
		d += " dbname=idemcheck_nosuchdb"
	}
	_, err := Run(context.Background(), Config{Handler: "true", Message: []byte(`{}`), DSN: d})
	var env *EnvError
	if !errors.As(err, &env) || !strings.Contains(err.Error(), `refused the connection: database "idemcheck_nosuchdb" does not exist; check the user, password and database name of the DSN`) {
		t.Fatalf("err = %v, want the server's reason and what to check", err)
	}
}

func TestInterruptStopsEverything(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pgids := filepath.Join(dir, "pgids")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted := make(chan time.Time, 1)
	go func() {
		// Interrupt once all three handlers are running.
		for ctx.Err() == nil {
			if b, _ := os.ReadFile(pgids); len(strings.Fields(string(b))) == 3 {
				time.Sleep(50 * time.Millisecond)
				interrupted <- time.Now()
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := Run(ctx, Config{
		Handler:    fmt.Sprintf("echo $$ >> %s; sleep 300 & sleep 300", pgids),
		Message:    []byte(`{}`),
		KillPoints: []KillPoint{{Kind: KillConcurrent, N: 3}},
		DSN:        dsn(t),
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// From the interrupt on, not from the start: setting the run up (the
	// database, three handlers) is slow on a loaded machine, and took the
	// whole 15 s in one cold run; stopping must not wait for anything.
	select {
	case at := <-interrupted:
		if took := time.Since(at); took > 15*time.Second {
			t.Errorf("the run took %s to stop after the interrupt", took)
		}
	default:
		t.Fatal("the run ended before the interrupt")
	}
	if live := liveProcesses(t, nil, readInts(t, pgids)); len(live) > 0 {
		t.Errorf("processes left after the interrupt:\n%s", strings.Join(live, "\n"))
	}
}

// --deliver mode: the handler is a server (this test binary in server mode);
// a kill kills the server and the redelivery starts it again.

const serverModeEnv = "IDEMCHECK_RESTARTTEST_SERVER"

func TestDeliverMode(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"stable", "random"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			port, err := serverPort()
			if err != nil {
				t.Fatal(err)
			}
			pids := filepath.Join(t.TempDir(), "pids")
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			cmd := fmt.Sprintf("%s=%s SERVER_ADDR=127.0.0.1:%d SERVER_PIDS=%s exec %s -test.run='^$'", serverModeEnv, mode, port, pids, exe)
			rep := run(t, Config{
				Handler:  cmd,
				Delivery: Delivery{URL: fmt.Sprintf("http://127.0.0.1:%d/webhook", port)},
				Message:  readTestdata(t, "message.json"),
				KillPoints: []KillPoint{{Kind: KillNone}, {Kind: KillResponse}, {Kind: KillConcurrent, N: 2},
					{Kind: KillRequest, Together: 2}, {Kind: KillResponse, Together: 2}},
				MaxAttempts: 3,
				Backoff:     10 * time.Millisecond,
				Timeout:     10 * time.Second,
				DSN:         dsn(t),
			})
			defer dumpOnFailure(t, rep)
			if os.Getenv("IDEMCHECK_DUMP") != "" {
				t.Log("\n" + reportJSON(rep))
			}
			r := roundAt(t, rep, "response")
			if !r.KillReached || len(r.Attempts) < 2 || !r.Attempts[len(r.Attempts)-1].Acked() {
				t.Errorf("response round: kill reached %v, attempts %d: want the restarted server to acknowledge", r.KillReached, len(r.Attempts))
			}
			if got := r.Attempts[len(r.Attempts)-1].HTTPStatus; got != http.StatusOK {
				t.Errorf("last attempt HTTP %d", got)
			}
			// One server answers both copies: the kill is the server's, and
			// both copies in flight die with it and are delivered again.
			for _, kp := range []string{"concurrent:2+request", "concurrent:2+response"} {
				r := roundAt(t, rep, kp)
				killed := 0
				for _, a := range r.Attempts {
					if a.KilledAt == strings.TrimPrefix(kp, "concurrent:2+") {
						killed++
					}
				}
				if !r.KillReached || killed != 2 || !r.Attempts[len(r.Attempts)-1].Acked() {
					t.Errorf("round %s: kill reached %v, %d attempts killed, attempts %+v: want the server killed under both copies, then an ack", kp, r.KillReached, killed, r.Attempts)
				}
				if mode == "random" && check(r, CheckEffectOnce).Passed && kp == "concurrent:2+response" {
					t.Errorf("round %s: random keys passed effect-once", kp)
				}
			}
			switch mode {
			case "stable":
				if rep.Verdict != VerdictPass {
					t.Errorf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
				}
			case "random":
				if check(r, CheckEffectOnce).Passed || check(r, CheckKeyStable).Passed {
					t.Errorf("random keys passed: %v", r.Checks)
				}
			}
			if live := liveProcesses(t, readInts(t, pids), nil); len(live) > 0 {
				t.Errorf("server processes left:\n%s", strings.Join(live, "\n"))
			}
		})
	}
}

// runTestServer is the test binary as a --deliver handler: it spawns a
// sleeping child (to prove the group kill), then charges once per POST with
// a key that is stable (from the body) or random.
func runTestServer() int {
	child := exec.Command("sleep", "300")
	if err := child.Start(); err == nil {
		f, _ := os.OpenFile(os.Getenv("SERVER_PIDS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		fmt.Fprintf(f, "%d %d\n", os.Getpid(), child.Process.Pid)
		f.Close()
	}
	ln, err := net.Listen("tcp", os.Getenv("SERVER_ADDR"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if path := os.Getenv("SERVER_CONNS"); path != "" {
		ln = countingListener{ln, path}
	}
	secret := os.Getenv("IDEMPOTENCY_HMAC_KEY")
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sum := sha256.Sum256(append([]byte(secret), body...))
		key := hex.EncodeToString(sum[:])
		if os.Getenv(serverModeEnv) == "random" {
			key = randomHex(16)
		}
		req, _ := http.NewRequest(http.MethodPost, os.Getenv("PROVIDER_URL")+"/v1/charges", bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			http.Error(w, "provider "+resp.Status, http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	return 0
}

// countingListener appends a line to a file for every connection accepted.
type countingListener struct {
	net.Listener
	path string
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		f, _ := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		fmt.Fprintln(f, c.RemoteAddr())
		f.Close()
	}
	return c, err
}

// Waiting for the server's port must not connect to it: a naive server
// (socat … fork EXEC:handler.sh, nc -l in a loop) takes every connection
// for a request. One delivery, one connection.
func TestDeliverPortWaitDoesNotConnect(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the listening socket is read from /proc/net/tcp on Linux only")
	}
	port, err := serverPort()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	conns := filepath.Join(dir, "conns")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := fmt.Sprintf("%s=stable SERVER_ADDR=127.0.0.1:%d SERVER_PIDS=%s SERVER_CONNS=%s exec %s -test.run='^$'",
		serverModeEnv, port, filepath.Join(dir, "pids"), conns, exe)
	rep := run(t, Config{
		Handler:     cmd,
		Delivery:    Delivery{URL: fmt.Sprintf("http://127.0.0.1:%d/webhook", port)},
		Message:     readTestdata(t, "message.json"),
		KillPoints:  []KillPoint{{Kind: KillNone}, {Kind: KillResponse}},
		MaxAttempts: 3,
		Backoff:     10 * time.Millisecond,
		Timeout:     10 * time.Second,
		DSN:         dsn(t),
	})
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictPass {
		t.Fatalf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
	}
	attempts := 0
	for _, r := range rep.Rounds {
		attempts += len(r.Attempts)
	}
	data, _ := os.ReadFile(conns)
	if got := strings.Count(string(data), "\n"); got != attempts {
		t.Errorf("the server accepted %d connections for %d deliveries:\n%s", got, attempts, data)
	}
}

func TestBadSetupIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	_, err := Run(context.Background(), Config{
		Handler: "true",
		Message: []byte(`{}`),
		Setup:   "create tabel oops (id int);",
		DSN:     dsn(t),
	})
	var env *EnvError
	if !errors.As(err, &env) || !strings.Contains(err.Error(), "setup SQL") {
		t.Fatalf("err = %v, want an EnvError about the setup SQL", err)
	}
}

func TestDeliverPortTakenIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, err = Run(context.Background(), Config{
		Handler:  "sleep 5",
		Delivery: Delivery{URL: "http://" + ln.Addr().String() + "/hook"},
		Message:  []byte(`{}`),
		DSN:      dsn(t),
	})
	var env *EnvError
	if !errors.As(err, &env) || !strings.Contains(err.Error(), "already listens") {
		t.Fatalf("err = %v, want an EnvError about the busy port", err)
	}
}

// Each run's schema is dropped at the end, unless Keep asks to inspect it.
func TestSchemaDroppedUnlessKept(t *testing.T) {
	t.Parallel()
	for _, keep := range []bool{false, true} {
		rep := run(t, Config{
			Handler:    "exit 0",
			Message:    []byte(`{}`),
			Setup:      "create table t (id int primary key);",
			EffectSQL:  []string{"select count(*) from t"},
			KillPoints: []KillPoint{{Kind: KillNone}},
			Keep:       keep,
			DSN:        dsn(t),
		})
		conn, err := pgx.Connect(context.Background(), dsn(t))
		if err != nil {
			t.Fatal(err)
		}
		var exists bool
		err = conn.QueryRow(context.Background(), "select exists (select 1 from pg_namespace where nspname = $1)", rep.Schema).Scan(&exists)
		if err == nil && exists {
			_, err = conn.Exec(context.Background(), "drop schema "+pgx.Identifier{rep.Schema}.Sanitize()+" cascade")
		}
		conn.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if exists != keep || rep.Kept != keep {
			t.Errorf("keep=%v: schema %s exists=%v, report kept=%v", keep, rep.Schema, exists, rep.Kept)
		}
	}
}

// A server that never listens is the clean round failing on its own: the
// error says so once, and, the handler having printed nothing, carries no
// output tail (the harness's own message is not the handler's output).
func TestServerThatNeverListens(t *testing.T) {
	t.Parallel()
	port, err := serverPort()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(t.Context(), Config{
		Handler:     "sleep 30",
		Delivery:    Delivery{URL: fmt.Sprintf("http://127.0.0.1:%d/webhook", port)},
		Message:     readTestdata(t, "message.json"),
		KillPoints:  []KillPoint{{Kind: KillNone}},
		MaxAttempts: 1,
		Backoff:     10 * time.Millisecond,
		Timeout:     time.Second,
		DSN:         dsn(t),
	})
	var env *EnvError
	if !errors.As(err, &env) {
		t.Fatalf("err = %v, want an environment error", err)
	}
	if !strings.Contains(env.Error(), "did not listen") || len(env.Tail) != 0 {
		t.Errorf("error %q, tail %q; want the listen failure once and no tail", env.Error(), env.Tail)
	}
}
