package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/idemcheck/idemcheck/internal/docexample"
	"github.com/idemcheck/idemcheck/internal/testenv"
	"github.com/idemcheck/idemcheck/internal/testpg"
)

// The script tests run the idemcheck binary the way users do: testscript
// re-executes this test binary as `idemcheck` (so its own main runs, and
// lint's go vet callback reaches the vet tool in it).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"idemcheck": main})
}

// docFiles are the documents whose ```sh commands must all run in a script.
func docFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, files...)
}

// docCommands indexes every documented command by its text.
func docCommands(t testing.TB) map[string][]docexample.Command {
	t.Helper()
	index := map[string][]docexample.Command{}
	for _, f := range docFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cmds, err := docexample.Parse(f, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cmds {
			index[c.Text] = append(index[c.Text], c)
		}
	}
	return index
}

// TestScripts runs testdata/script/*.txtar. Their working directory is the
// repository root, where the documented commands run.
func TestScripts(t *testing.T) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	index := docCommands(t)
	goEnv := goEnvironment(t)
	t.Cleanup(shared.Stop) // after the parallel scripts, unlike a defer
	// `idemcheck` in the scripts is the executable the other test packages
	// run too (testenv.Idemcheck), ahead of testscript's copy of this test
	// binary on PATH: go vet's cache, keyed by the vet tool's contents, then
	// serves every package of the run.
	bin := filepath.Dir(testenv.Idemcheck(t))
	t.Cleanup(testenv.RemoveIdemcheck)
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Cd = root
			env.Vars = append(env.Vars, goEnv...)
			for i, v := range env.Vars {
				if path, ok := strings.CutPrefix(v, "PATH="); ok {
					env.Vars[i] = "PATH=" + bin + string(filepath.ListSeparator) + path
				}
			}
			// The restart-test examples use the test database when there is
			// one, and otherwise one embedded PostgreSQL shared by every
			// script that declares the pg condition (each run keeps to a
			// schema of its own). A script can still show the documented
			// default, a throwaway server per run, with `env DATABASE_URL=`.
			if dsn := os.Getenv("IDEMCHECK_TEST_DATABASE"); dsn != "" {
				env.Vars = append(env.Vars, "DATABASE_URL="+dsn)
			} else if usesPostgres(t, env) && havePostgres() && !testing.Short() {
				dsn, err := shared.DSN()
				if err != nil {
					return err
				}
				env.Vars = append(env.Vars, "DATABASE_URL="+dsn)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "pg":
				return havePostgres(), nil
			case "full":
				// Commands that each cost a cold go vet run or a benchmark:
				// CI runs them (IDEMCHECK_TESTS=full, see internal/testenv).
				return testenv.Full(), nil
			case "nodedeps":
				return haveNodeDeps(root), nil
			}
			if module, ok := strings.CutPrefix(cond, "python3:"); ok {
				return havePythonModule(module), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"doc": func(ts *testscript.TestScript, neg bool, args []string) { runDoc(ts, neg, args, index) },
		},
	})
}

// runDoc implements `doc [-exit=N] 'COMMAND'`: COMMAND must be a command shown
// in README.md or docs/*.md; it runs with sh -c from the repository root, must
// exit 0 (1 after !, or N), and its stdout must match the output every
// document shows for it. `export NAME=VALUE` sets a variable for the rest of
// the script instead.
func runDoc(ts *testscript.TestScript, neg bool, args []string, index map[string][]docexample.Command) {
	want := 0
	if neg {
		want = 1
	}
	if len(args) > 0 && strings.HasPrefix(args[0], "-exit=") {
		n, err := strconv.Atoi(strings.TrimPrefix(args[0], "-exit="))
		ts.Check(err)
		want, args = n, args[1:]
	}
	text := docexample.Normalize(strings.Join(args, " "))
	shown, ok := index[text]
	if !ok {
		ts.Fatalf("doc: %q is not shown in README.md or docs/*.md; if the docs changed it, change this script to match", text)
	}
	if name, value, ok := strings.Cut(strings.TrimPrefix(text, "export "), "="); ok && strings.HasPrefix(text, "export ") && !strings.ContainsAny(name, " $") {
		ts.Setenv(name, value)
		return
	}
	err := ts.Exec("sh", "-c", text)
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("doc: %v", err)
	}
	if code != want {
		ts.Fatalf("doc: exit %d, want %d", code, want)
	}
	stdout := ts.ReadFile("stdout")
	for _, c := range shown {
		if c.HasOut && !docexample.Match(c.Output, stdout) {
			ts.Fatalf("doc: the output differs from %s:%d's; it shows:\n%s\n\nthe command printed:\n%s", c.File, c.Line, c.Output, stdout)
		}
	}
}

// usesPostgres reports whether the script being set up declares the pg
// condition.
func usesPostgres(t *testing.T, env *testscript.Env) bool {
	named, ok := env.T().(interface{ Name() string })
	if !ok {
		return false
	}
	name := strings.TrimPrefix(named.Name(), t.Name()+"/")
	data, err := os.ReadFile(filepath.Join("testdata", "script", name+".txtar"))
	return err == nil && (strings.Contains(string(data), "[pg]") || strings.Contains(string(data), "[!pg]"))
}

// shared is the embedded PostgreSQL of the scripts, started on first use.
var shared testpg.Shared

// havePostgres reports whether restart-test can reach a database: the test
// database, or server binaries to start its own (as the docs say).
func havePostgres() bool {
	if os.Getenv("IDEMCHECK_TEST_DATABASE") != "" {
		return true
	}
	if _, err := exec.LookPath("initdb"); err == nil {
		return true
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	return len(found) > 0
}

// havePythonModule reports whether Debian's python3 imports module
// (`[python3:pika]`): the handlers in testdata/restart/python run with
// /usr/bin/python3 and its python3-* packages.
func havePythonModule(module string) bool {
	return exec.Command("/usr/bin/python3", "-c", "import "+module).Run() == nil
}

// haveNodeDeps reports whether node runs and the modules of
// testdata/restart/node/package-lock.json are installed beside it (`npm ci`
// writes node_modules/.package-lock.json; .ci/run does it).
func haveNodeDeps(root string) bool {
	if _, err := exec.LookPath("node"); err != nil {
		return false
	}
	_, err := os.Stat(filepath.Join(root, "testdata", "restart", "node", "node_modules", ".package-lock.json"))
	return err == nil
}

var (
	goEnvOnce sync.Once
	goEnvVars []string
	goEnvErr  error
)

// goEnvironment is the go command's configuration, which scripts need to
// run go (their HOME is not a real one): the same build and module caches.
func goEnvironment(t testing.TB) []string {
	goEnvOnce.Do(func() {
		names := []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOSUMDB", "GOFLAGS", "GOTOOLCHAIN", "GONOSUMDB", "GOPRIVATE", "GOINSECURE"}
		out, err := exec.Command("go", append([]string{"env", "-json"}, names...)...).Output()
		if err != nil {
			goEnvErr = fmt.Errorf("go env: %v", err)
			return
		}
		var vals map[string]string
		if goEnvErr = json.Unmarshal(out, &vals); goEnvErr != nil {
			return
		}
		for _, n := range names {
			if v := vals[n]; v != "" {
				goEnvVars = append(goEnvVars, n+"="+v)
			}
		}
	})
	if goEnvErr != nil {
		t.Fatal(goEnvErr)
	}
	return goEnvVars
}

// notRun are the documented commands no script runs, each with the reason.
// Keep it short: a command here can drift without failing the build.
var notRun = map[string]string{
	"go test ./...": "it is this test suite",
	"bash .ci/run":  "it is CI itself",
	"go install github.com/idemcheck/idemcheck@latest": "needs a published release and the network",
	"golangci-lint custom":                             "needs golangci-lint and the network",
	"./custom-gcl run ./...":                           "needs the binary golangci-lint custom builds",
	"bash derive/bench/hmac_share.sh":                  "a 15 s CPU profile of the benchmarks, run by hand",
	"scripts/cold-tests-under-load.sh -n 20":           "20 cold runs of this test suite under load, hours, run by hand",
	"scripts/cold-tests-under-load.sh -n 20 -c kept":   "20 cold runs of this test suite under load, an hour or more, run by hand",
}

// TestEveryDocCommandRuns fails when a command shown in README.md or
// docs/*.md is run by no script in testdata/script (see docs/CONTRIBUTING.md).
func TestEveryDocCommandRuns(t *testing.T) {
	run := map[string]bool{}
	scripts, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range docexample.ScriptCommands(data) {
			run[c] = true
		}
	}
	index := docCommands(t)
	var missing []string
	for text, shown := range index {
		if !run[text] && notRun[text] == "" {
			missing = append(missing, fmt.Sprintf("%s:%d: %s", shown[0].File, shown[0].Line, text))
		}
	}
	slices.Sort(missing)
	for _, m := range missing {
		t.Errorf("no script in testdata/script runs %s", m)
	}
	for text := range notRun {
		if _, ok := index[text]; !ok {
			t.Errorf("notRun lists %q, which no document shows any more: remove it", text)
		}
	}
}

// TestVersionFromGitCheckout: a binary built in a git checkout (go install .
// from a clone) names its commit and the commit's date in --version, from
// the build information the go command stamps, with no ldflags.
func TestVersionFromGitCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds idemcheck")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	if st, err := os.Stat(".git"); err != nil || !st.IsDir() {
		t.Skip("a git worktree: the go command stamps commits only where .git is a directory")
	}
	bin := filepath.Join(t.TempDir(), "idemcheck")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=") // this machine's GOFLAGS may say -buildvcs=false
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	commit := strings.TrimSpace(string(head))
	if !strings.Contains(string(out), "commit "+commit) || strings.Contains(string(out), "date unknown") {
		t.Errorf("--version = %q; want commit %s and its date", out, commit)
	}
}

// TestReadmeStatesGoVersion: the quick start names the Go version go.mod
// requires (older Go refuses the module) and where to get it, so a reader
// on a distribution with an old golang package is not left with a build
// error.
func TestReadmeStatesGoVersion(t *testing.T) {
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for _, line := range strings.Split(string(mod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			want = strings.TrimSpace(v)
		}
	}
	if want == "" {
		t.Fatal("go.mod has no go line")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	quick, _, _ := strings.Cut(string(readme), "## Install")
	for _, s := range []string{"Go " + want + " or newer", "https://go.dev/dl/", "bookworm-backports"} {
		if !strings.Contains(quick, s) {
			t.Errorf("README's quick start does not say %q (go.mod: go %s)", s, want)
		}
	}
	if strings.Contains(quick, "apt-get install golang postgresql") {
		t.Error("README's quick start still says apt-get install golang suffices")
	}
}
