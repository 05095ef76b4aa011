package cmd

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/internal/testenv"
	"github.com/idemcheck/idemcheck/restarttest/pgembed"
)

func runRestartTest(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	ios.SetStderrTTY(true) // draw the progress line
	root := NewRootCmd("test", ios)
	root.SetArgs(append([]string{"restart-test"}, args...))
	err := root.Execute()
	if err != nil {
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Err != nil {
			errOut.WriteString("idemcheck: " + oneLine(err.Error()) + "\n")
		}
	}
	return exitCode(err), out.String(), errOut.String()
}

func TestRestartTestUsageErrors(t *testing.T) {
	t.Parallel()
	msg := filepath.Join("..", "testdata", "restart", "message.json")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--message", msg}, "--handler is required"},
		{[]string{"--handler", "true"}, "--message is required"},
		{[]string{"--handler", "true", "--message", "/nonexistent.json"}, "--message: /nonexistent.json: no such file"},
		{[]string{"--handler", "true", "--message", msg, "--kill-at", "explode"}, `unknown kill point "explode"`},
		{[]string{"--handler", "true", "--message", msg, "--kill-at", "db-write:0"}, "db-write:N with N ≥ 1"},
		{[]string{"--handler", "true", "--message", msg, "--format", "xml"}, `unknown --format "xml"`},
		{[]string{"--handler", "true", "--message", msg, "--provider-fault", "503"}, "unknown provider fault"},
		{[]string{"--handler", "true", "--message", msg, "--dsn", "postgres://u@db.example.com/prod"}, "not loopback"},
		{[]string{"--handler", "true", "--message", msg, "--dsn", "mysql://root:hunter2@127.0.0.1/test"}, `bad DSN: scheme "mysql" is not PostgreSQL; want postgres://`},
		{[]string{"--handler", "true", "--message", msg, "--max-attempts", "x"}, `--max-attempts "x": want a whole number`},
		{[]string{"--handler", "true", "--message", msg, "--deliver", "ftp://x"}, "bad --deliver URL"},
		{[]string{"--handler", "true", "--message", msg, "--setup", "/nonexistent.sql"}, "--setup: /nonexistent.sql"},
		{[]string{"--handler", "true", "--message", msg, "--timeout", "0s"}, "--timeout must be positive"},
		{[]string{"--handler", "true", "--message", msg, "--bogus"}, "unknown flag"},
		{[]string{"--handler", "true", "--message", os.DevNull}, "is empty: nothing to deliver"},
		{[]string{"--handler", "true", "--message", "-"}, "--message: stdin is empty"},
		{[]string{"--handler", "true", "--message", msg, "--rounds", "3"}, "apply to --kill-at random"},
		{[]string{"--handler", "true", "--message", msg, "--kill-at", "request", "--seed", "7"}, "apply to --kill-at random"},
		{[]string{"--handler", "true", "--message", msg, "--report", "/nonexistent/report.html"}, "--report: /nonexistent/report.html: no such file or directory"},
		{[]string{"--handler", "true", "--message", msg, "--dsn", "postgres://postgres:hunter2@127.0.0.1/test?connect_timeout=abc"}, `invalid connect_timeout ("abc" is not a number)`},
		{[]string{"--handler", "true", "--message", msg, "--dsn", "--dsn", "postgres://postgres:hunter2@127.0.0.1/test"}, "--dsn has no value: it took --dsn, the flag after it, as its value"},
		{[]string{"--handler", "true", "--message", msg, "--kill-at", "--dsn", "postgres://postgres:hunter2@127.0.0.1/test"}, "--kill-at has no value: it took --dsn"},
	}
	for _, tc := range cases {
		code, _, stderr := runRestartTest(t, tc.args...)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
		if strings.Contains(stderr, "hunter2") {
			t.Errorf("%v: the DSN's password leaked: %q", tc.args, stderr)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: error is not one line: %q", tc.args, stderr)
		}
	}
}

// Not parallel: DATABASE_URL is the process's.
func TestRestartTestRefusesRemoteDatabaseURL(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://app@10.1.2.3:5432/prod")
	code, _, stderr := runRestartTest(t, "--handler", "true", "--message", filepath.Join("..", "testdata", "restart", "message.json"))
	if code != ExitUsage || !strings.Contains(stderr, "--allow-remote") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// databaseArgs returns no flag when the embedded server can be used (the
// quick start's path), else --dsn from IDEMCHECK_TEST_DATABASE.
func databaseArgs(t *testing.T) []string {
	t.Helper()
	if _, err := pgembed.FindBinaries(); err == nil {
		return nil
	}
	if dsn := os.Getenv("IDEMCHECK_TEST_DATABASE"); dsn != "" {
		return []string{"--dsn", dsn}
	}
	t.Skip("no PostgreSQL server binaries and no IDEMCHECK_TEST_DATABASE")
	return nil
}

// testDatabaseArgs is --dsn IDEMCHECK_TEST_DATABASE when it is set, else
// --dsn of the package's shared embedded server: for the tests that are not
// about the quick start's own server.
func testDatabaseArgs(t *testing.T) []string {
	t.Helper()
	if dsn := os.Getenv("IDEMCHECK_TEST_DATABASE"); dsn != "" {
		return []string{"--dsn", dsn}
	}
	if _, err := pgembed.FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries and no IDEMCHECK_TEST_DATABASE")
	}
	dsn, err := shared.DSN()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"--dsn", dsn}
}

func buildExample(t *testing.T, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	if err := testenv.BuildProgram("..", "./testdata/restart/"+name, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func exampleArgs(t *testing.T, name string, db []string) []string {
	dir := filepath.Join("..", "testdata", "restart")
	return append(db,
		"--handler", buildExample(t, name),
		"--setup", filepath.Join(dir, name, "setup.sql"),
		"--message", filepath.Join(dir, "message.json"),
		"--backoff", "30ms", "--max-attempts", "4")
}

// quickStartPlan is the kill points of the quick start's runs: the clean
// round and the response kill; the default plan with IDEMCHECK_TESTS=full
// (where the doc script restart.txtar runs it on both examples too).
func quickStartPlan() []string {
	if testenv.Full() {
		return nil
	}
	return []string{"--kill-at", "none", "--kill-at", "response"}
}

// The README's quick start: uuidkey fails, intent passes.
func TestRestartTestQuickStartUUIDKeyFailsAsJSON(t *testing.T) {
	t.Parallel()
	args := append(append(exampleArgs(t, "uuidkey", testDatabaseArgs(t)), quickStartPlan()...), "--format", "json")
	code, stdout, stderr := runRestartTest(t, args...)
	if code != ExitFinding {
		t.Fatalf("exit %d, want 1\nstderr: %s", code, stderr)
	}
	var rep struct {
		Version int    `json:"version"`
		Verdict string `json:"verdict"`
		Summary string `json:"summary"`
		Learned struct {
			Writes         int `json:"writes"`
			EffectRequests int `json:"effect_requests"`
		} `json:"learned"`
		Rounds []struct {
			KillPoint string `json:"kill_point"`
			Passed    bool   `json:"passed"`
			Attempts  []struct {
				Outcome string `json:"outcome"`
			} `json:"attempts"`
			EffectRequests []struct {
				IdempotencyKey string `json:"idempotency_key"`
				Result         string `json:"result"`
			} `json:"effect_requests"`
			Checks []struct {
				Name   string `json:"name"`
				Passed bool   `json:"passed"`
				Detail string `json:"detail"`
			} `json:"checks"`
		} `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s", err, stdout)
	}
	if rep.Version != 1 || rep.Verdict != "fail" || !strings.HasPrefix(rep.Summary, "FAIL ") || rep.Learned.EffectRequests != 1 {
		t.Errorf("report head: %+v", rep)
	}
	found := false
	for _, r := range rep.Rounds {
		if r.KillPoint != "response" {
			continue
		}
		found = true
		if len(r.Checks) != 5 || len(r.EffectRequests) != 2 || r.Attempts[0].Outcome != "killed" {
			t.Errorf("response round: %+v", r)
		}
		for _, c := range r.Checks {
			if (c.Name == "key-stable" || c.Name == "effect-once") == c.Passed {
				t.Errorf("response round check %s passed=%v (%s)", c.Name, c.Passed, c.Detail)
			}
		}
	}
	if !found {
		t.Error("no response round")
	}
	if !strings.Contains(stderr, "round 1/") {
		t.Errorf("no progress line on stderr: %q", stderr)
	}
}

func TestRestartTestQuickStartIntentPasses(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runRestartTest(t, append(exampleArgs(t, "intent", databaseArgs(t)), quickStartPlan()...)...)
	if code != ExitOK {
		t.Fatalf("exit %d, want 0\n%s\nstderr: %s", code, stdout, stderr)
	}
	all := "PASS 2/2 rounds"
	if testenv.Full() {
		all = "PASS 13/13 rounds"
	}
	for _, want := range []string{"round 1  clean (no kill)  PASS", "kill at response", "✓ effect-once", "– key-stable", all} {
		if !strings.Contains(stdout, want) {
			t.Errorf("text output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "\x1b[") {
		t.Error("styled output on a non-terminal")
	}
}

// Piped, the run says on stderr that it used an embedded PostgreSQL (the
// progress line that says so on a terminal is not drawn).
func TestRestartTestPipedSaysEmbeddedPostgreSQL(t *testing.T) {
	t.Parallel()
	if databaseArgs(t) != nil {
		t.Skip("no PostgreSQL server binaries: the embedded server cannot start")
	}
	ios, _, out, errOut := iostreams.Test()
	root := NewRootCmd("test", ios)
	root.SetArgs(append([]string{"restart-test"}, append(exampleArgs(t, "intent", nil), "--kill-at", "none")...))
	if err := root.Execute(); err != nil {
		t.Fatalf("%v\nstdout: %s\nstderr: %s", err, out, errOut)
	}
	if got := errOut.String(); got != "note: "+embeddedNote+"\n" {
		t.Errorf("stderr = %q; want the note that an embedded PostgreSQL is used, and nothing else", got)
	}
	for _, c := range testDatabaseArgs(t)[1:] {
		root := NewRootCmd("test", ios)
		errOut.Reset()
		root.SetArgs(append([]string{"restart-test"}, append(exampleArgs(t, "intent", []string{"--dsn", c}), "--kill-at", "none")...))
		if err := root.Execute(); err != nil || strings.Contains(errOut.String(), "embedded") {
			t.Errorf("with --dsn: %v, stderr %q; want no note about an embedded server", err, errOut)
		}
	}
}

func TestRestartTestHandlerNotFound(t *testing.T) {
	t.Parallel()
	args := append(testDatabaseArgs(t), "--handler", "/nonexistent/handler", "--message", filepath.Join("..", "testdata", "restart", "message.json"))
	code, _, stderr := runRestartTest(t, args...)
	if code != ExitUsage || !strings.Contains(stderr, "handler not found") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// A handler that cannot run has no verdict: exit 2 with its output's end,
// not a "lost effect" finding.
func TestRestartTestHandlerThatCannotRunIsExit2(t *testing.T) {
	t.Parallel()
	args := append(testDatabaseArgs(t), "--handler", "go run ./nope", "--message", filepath.Join("..", "testdata", "restart", "message.json"))
	code, stdout, stderr := runRestartTest(t, args...)
	if code != ExitUsage || !strings.Contains(stderr, "the clean round failed on its own") || !strings.Contains(stderr, "  | ") || !strings.Contains(stderr, "nope") {
		t.Errorf("exit %d, stderr %q; want exit 2 with the handler's output", code, stderr)
	}
	if strings.Contains(stdout+stderr, "lost") {
		t.Errorf("a handler that cannot run reported as a lost effect:\n%s%s", stdout, stderr)
	}
}
