package restarttest

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/restarttest/pgembed"

	"github.com/idemcheck/idemcheck/internal/loopback"
	"github.com/idemcheck/idemcheck/internal/testenv"
)

// The tests talk to a real PostgreSQL: IDEMCHECK_TEST_DATABASE (a libpq URL,
// or empty to use the PG* variables), else an embedded server started from
// the installed binaries for the whole package.
var (
	testDSN      string
	testDSNError error
	testDSNReady = make(chan struct{}) // closed once testDSN or testDSNError is set
	handlersDir  string
	buildMu      sync.Mutex
	built        = map[string]*build{}
)

func TestMain(m *testing.M) {
	if os.Getenv(serverModeEnv) != "" {
		os.Exit(runTestServer())
	}
	flag.Parse()
	moreParallel()
	var pg *pgembed.Server
	if testing.Short() {
		testDSNError = errors.New("-short")
		close(testDSNReady)
	} else if v, ok := os.LookupEnv("IDEMCHECK_TEST_DATABASE"); ok {
		testDSN = v
		if v == "" {
			testDSN = "postgres://"
		}
		close(testDSNReady)
	} else {
		// The server starts while the tests that need none run.
		go func() {
			defer close(testDSNReady)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var err error
			if pg, err = pgembed.Start(ctx); err != nil {
				testDSNError = err
			} else {
				testDSN = pg.DSN()
			}
		}()
	}
	dir, err := os.MkdirTemp("", "idemcheck-handlers-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	handlersDir = dir
	prebuilt := prebuildHandlers()
	code := m.Run()
	prebuilt() // no go command left running into a removed directory
	os.RemoveAll(dir)
	<-testDSNReady
	pg.Stop()
	os.Exit(code)
}

// moreParallel runs up to eight times GOMAXPROCS tests at once (at least
// 16), unless -parallel was given: a run test mostly waits for its handler
// processes, a broker's idle window or a backoff, not for a CPU, and the
// broker tests' idle windows make them the longest; with fewer slots they
// start last and the package ends seconds after the rest.
func moreParallel() {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if f := flag.Lookup("test.parallel"); f != nil && !set {
		_ = f.Value.Set(strconv.Itoa(max(16, 8*runtime.GOMAXPROCS(0))))
	}
}

// dsn returns the test database, skipping under -short and when there is
// none at all.
func dsn(t testing.TB) string {
	t.Helper()
	testenv.SkipIfShort(t, "needs PostgreSQL")
	<-testDSNReady
	if testDSNError != nil {
		t.Skipf("no PostgreSQL: set IDEMCHECK_TEST_DATABASE or install the server binaries: %v", testDSNError)
	}
	return testDSN
}

// handler builds testdata/restart/<name> once and returns its path.
func handler(t testing.TB, name string) string {
	t.Helper()
	return buildMain(t, "testdata/restart/"+name)
}

// buildMain builds the main package at pkg (relative to the module root)
// once per test binary and returns the executable's path (see
// testenv.BuildProgram: a second test run links nothing). Different
// packages build in parallel.
func buildMain(t testing.TB, pkg string) string {
	t.Helper()
	testenv.SkipIfShort(t, "builds handlers to run against PostgreSQL")
	path, err := program(pkg)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func program(pkg string) (string, error) {
	buildMu.Lock()
	b, ok := built[pkg]
	if !ok {
		b = &build{path: filepath.Join(handlersDir, strings.ReplaceAll(pkg, "/", "_"))}
		built[pkg] = b
	}
	buildMu.Unlock()
	b.once.Do(func() {
		b.err = testenv.BuildProgram("..", "./"+pkg, b.path)
	})
	return b.path, b.err
}

// prebuildHandlers builds every example handler under testdata/restart,
// GOMAXPROCS at a time, while the serial tests run (they mostly wait): on a
// fresh clone the parallel tests otherwise all start by linking their
// handlers at once. Only for a run of the whole package: -run picks a few.
func prebuildHandlers() (wait func()) {
	var wg sync.WaitGroup
	if testing.Short() || flag.Lookup("test.run").Value.String() != "" {
		return wg.Wait
	}
	mains, _ := filepath.Glob(filepath.Join("..", "testdata", "restart", "*", "main.go"))
	nested, _ := filepath.Glob(filepath.Join("..", "testdata", "restart", "*", "*", "main.go"))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, m := range append(mains, nested...) {
		pkg := filepath.ToSlash(strings.TrimPrefix(filepath.Dir(m), ".."+string(filepath.Separator)))
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			program(pkg)
		})
	}
	return wg.Wait
}

type build struct {
	once sync.Once
	path string
	err  error
}

// serverPort is a free loopback port for a handler that listens (--deliver),
// below the kernel's ephemeral range (32768 and up on Linux), where the
// listeners on port 0 and the outgoing connections of the tests running in
// parallel never land between the pick and the handler's bind. Each call
// tries the next port of a sequence that starts at a random place.
func serverPort() (int, error) {
	for range 200 {
		port := 20000 + int(nextPort.Add(1)%12000)
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			continue
		}
		l.Close()
		return port, nil
	}
	return loopback.FreePort()
}

var nextPort = func() *atomic.Uint32 {
	var n atomic.Uint32
	n.Store(rand.Uint32N(12000))
	return &n
}()

func readTestdata(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "restart", rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exampleConfig is a run of a bundled example handler with short backoffs.
func exampleConfig(t testing.TB, name string) Config {
	return Config{
		Handler:      handler(t, name),
		Message:      readTestdata(t, "message.json"),
		Setup:        string(readTestdata(t, name+"/setup.sql")),
		ModelReplies: ParseModelReplies(readTestdata(t, "model-replies.txt")),
		MaxAttempts:  4,
		Timeout:      attemptLimit,
		Backoff:      30 * time.Millisecond,
		DSN:          dsn(t),
	}
}

// unlessFull is a run's kill points: kps, the representative rounds, at
// the default level; nil (the default plan: every kill point the clean
// round calls for) with IDEMCHECK_TESTS=full.
func unlessFull(kps ...KillPoint) []KillPoint {
	if testenv.Full() {
		return nil
	}
	return kps
}

// ran lists the kill points of names that the run has: all of them in a
// Full run (where a missing one is an error), those its plan named otherwise.
func ran(t *testing.T, rep *Report, names ...string) []string {
	t.Helper()
	var out []string
	for _, name := range names {
		if slices.Contains(killPoints(rep), name) {
			out = append(out, name)
		} else if testenv.Full() {
			t.Errorf("the default plan %v lacks %s", killPoints(rep), name)
		}
	}
	return out
}

func run(t *testing.T, cfg Config) *Report {
	t.Helper()
	// A bound for a hung run, not a speed check: the full default plan of a
	// shell handler (a dozen rounds, each attempt a few processes) took
	// over two minutes while CI's other packages loaded the machine.
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	rep, err := Run(ctx, cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return rep
}

// runLimit bounds one Run in a test: a hang, not a slow machine. A
// broker consumer's default plan takes about 2 minutes on an idle machine
// and went past 8 once when the machine ran a second test suite and a
// cold build beside it (load average 19).
const runLimit = 20 * time.Minute

// attemptLimit is the tests' --timeout: a bound on a hung attempt, not a
// speed check. Under load (a shell handler's psql and curl each start
// slowly) a correct attempt took 19 s, and a 20 s bound made it a
// timeout; tests about the timeout itself set their own.
const attemptLimit = time.Minute

func roundAt(t *testing.T, rep *Report, kill string) Round {
	t.Helper()
	for _, r := range rep.Rounds {
		if r.KillPoint == kill {
			return r
		}
	}
	t.Fatalf("no round with kill point %s in %v", kill, killPoints(rep))
	return Round{}
}

func killPoints(rep *Report) []string {
	var out []string
	for _, r := range rep.Rounds {
		out = append(out, r.KillPoint)
	}
	return out
}

func check(r Round, name string) Check {
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	return Check{Name: name}
}

// failedChecks lists "kill-point/check" for every failed check of the run.
func failedChecks(rep *Report) map[string]bool {
	out := map[string]bool{}
	for _, r := range rep.Rounds {
		for _, c := range r.Checks {
			if c.Failed() {
				out[r.KillPoint+"/"+c.Name] = true
			}
		}
	}
	return out
}

func dumpOnFailure(t *testing.T, rep *Report) {
	t.Helper()
	if t.Failed() {
		t.Log("\n" + reportJSON(rep))
	}
}

// reportJSON is the report as --format json writes it, for a failed test's
// log (the text report is textreport's, which this package cannot import).
func reportJSON(rep *Report) string {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// runNoVerdict runs cfg expecting a run without a verdict: an *EnvError,
// with the report of the rounds run so far.
func runNoVerdict(t *testing.T, cfg Config) (*Report, *EnvError) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	rep, err := Run(ctx, cfg)
	var env *EnvError
	if !errors.As(err, &env) || rep == nil {
		t.Fatalf("Run = %v, %v; want an environment error with the report so far", rep != nil, err)
	}
	return rep, env
}
