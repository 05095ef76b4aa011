package restarttest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/idemcheck/idemcheck/internal/mutant"
	"github.com/idemcheck/idemcheck/internal/testenv"
)

// Mutation testing of the checker: every correct example handler whose
// code marks its safeguards (internal/mutant) gets one mutant per marked
// safeguard, each with that safeguard removed. restart-test must pass the
// original and fail every mutant with a check that shows the safeguard is
// gone, on its default plan. What no default run catches is listed in
// mutantsUncaught with the reason, and in docs/restart-test.md.

// mutationSubject is one correct example handler.
type mutationSubject struct {
	name  string   // row of the table: handler (language, delivery)
	files []string // the marked files, relative to testdata/restart
	// pkg is the Go package to build (relative to the module root); ""
	// for a script, which is files[0], run with interp (default sh).
	pkg    string
	interp func(t *testing.T) string
	// config is the run for the handler command and setup SQL.
	config func(t *testing.T, handler, setup string) Config
	// full: only at IDEMCHECK_TESTS=full (slow: a server per attempt, a
	// broker's idle window per round).
	full bool
}

func mutationSubjects() []mutationSubject {
	return []mutationSubject{
		{name: "intent (Go, stdin)", files: []string{"intent/main.go", "intent/setup.sql"}, pkg: "testdata/restart/intent",
			config: stdinMutantConfig},
		{name: "sh/intent.sh (sh, stdin)", files: []string{"sh/intent.sh", "sh/setup.sql"}, full: true,
			config: stdinMutantConfig},
		{name: "python/intent (Python, stdin)", files: []string{"python/intent/main.py", "sh/setup.sql"}, interp: python, full: true,
			config: stdinMutantConfig},
		{name: "node/intent (Node, stdin)", files: []string{"node/intent/main.js", "sh/setup.sql"}, interp: node, full: true,
			config: stdinMutantConfig},
		{name: "api/right (Go, --client-key API)", files: []string{"api/right/main.go", "api/setup.sql"}, pkg: "testdata/restart/api/right", full: true,
			config: apiMutantConfig},
		{name: "python/api/right (Python, --client-key API)", files: []string{"python/api/right/main.py", "api/setup.sql"}, interp: python, full: true,
			config: apiMutantConfig},
		{name: "node/api/right (Node, --client-key API)", files: []string{"node/api/right/main.js", "api/setup.sql"}, interp: node, full: true,
			config: apiMutantConfig},
		{name: "localorder (Go, POST)", files: []string{"localorder/main.go", "localorder/setup.sql"}, pkg: "testdata/restart/localorder", full: true,
			config: func(t *testing.T, handler, setup string) Config {
				cfg := localOrderConfig(t, "", countOrders)
				addr := strings.Split(cfg.Delivery.URL, "/")[2]
				cfg.Handler = "exec " + handler + " " + addr
				cfg.Setup = setup
				return cfg
			}},
		{name: "consumers/amqp (Go, RabbitMQ consumer)", files: []string{"consumers/amqp/main.go", "consumers/setup.sql"}, pkg: "testdata/restart/consumers/amqp", full: true,
			config: func(t *testing.T, handler, setup string) Config {
				return consumerMutantConfig(t, handler+" -key intent", setup)
			}},
		{name: "python/consumer/intent (Python, RabbitMQ consumer)", files: []string{"python/consumer/intent/main.py", "consumers/setup.sql"}, interp: python, full: true,
			config: consumerMutantConfig},
		{name: "node/consumer/intent (Node, RabbitMQ consumer)", files: []string{"node/consumer/intent/main.js", "consumers/setup.sql"}, interp: node, full: true,
			config: consumerMutantConfig},
	}
}

// stdinMutantConfig runs a stdin handler of the intent design.
func stdinMutantConfig(t *testing.T, handler, setup string) Config {
	cfg := exampleConfig(t, "intent")
	cfg.Handler, cfg.Setup = handler, setup
	return cfg
}

// apiMutantConfig runs a --client-key API server (it takes the address to
// listen on as its argument) and counts the orders it writes.
func apiMutantConfig(t *testing.T, handler, setup string) Config {
	cfg := apiServerConfig(t, handler)
	cfg.Setup = setup
	cfg.EffectSQL = []string{"select count(*) from orders"}
	return cfg
}

// consumerMutantConfig runs a RabbitMQ consumer of the intent design.
func consumerMutantConfig(t *testing.T, handler, setup string) Config {
	cfg := amqpConfig(t, "exec "+handler)
	cfg.Setup = setup
	return cfg
}

// python is Debian's python3 with the modules the Python examples import
// (.ci/run installs them); without them the subject is skipped, except
// under CI, where that is a failure.
func python(t *testing.T) string {
	if module := missingPythonModule(); module != "" {
		missingInterpreter(t, "/usr/bin/python3 with python3-"+module+" (apt-get install python3-"+module+")")
	}
	return "/usr/bin/python3"
}

// missingPythonModule is the first module the Python examples import that
// Debian's python3 lacks, or "": asked once, not for every mutant.
var missingPythonModule = sync.OnceValue(func() string {
	for _, module := range []string{"psycopg", "pika", "flask"} {
		if exec.Command("/usr/bin/python3", "-c", "import "+module).Run() != nil {
			return module
		}
	}
	return ""
})

// node is node with the modules of testdata/restart/node installed (npm ci
// there; .ci/run does it). The mutant runs from a temporary directory, so
// NODE_PATH points require at those modules.
func node(t *testing.T) string {
	modules, err := filepath.Abs(filepath.Join("..", "testdata", "restart", "node", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missingInterpreter(t, "node (apt-get install nodejs npm)")
	}
	if _, err := os.Stat(filepath.Join(modules, ".package-lock.json")); err != nil {
		missingInterpreter(t, "the modules of testdata/restart/node (npm ci there)")
	}
	return "env NODE_PATH=" + shellQuote(modules) + " node"
}

func missingInterpreter(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("needs %s: .ci/run installs it", what)
	}
	t.Skipf("needs %s", what)
}

// mutantsUncaught are the mutants no black-box run of the default plan
// catches, and why (docs/restart-test.md lists them too).
var mutantsUncaught = map[string]string{
	"intent (Go, stdin)/unique-constraint": "breaks nothing: the intent's idem_key is unique too, and on conflict do nothing finds the row by it",
}

type mutationResult struct {
	subject, mutant string
	caught          bool
	how             string // the failed checks, or why it passed
}

func TestMutantsAreCaught(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var results []mutationResult
	t.Cleanup(func() { logMutationTable(t, results) })
	for _, s := range mutationSubjects() {
		t.Run(s.name, func(t *testing.T) {
			if s.full {
				testenv.SkipUnlessFull(t, "mutants of "+s.name)
			}
			files := map[string][]byte{}
			for _, f := range s.files {
				files[f] = readTestdata(t, f)
			}
			names, err := mutant.Names(files)
			if err != nil {
				t.Fatal(err)
			}
			if len(names) == 0 {
				t.Fatalf("no mutant marked in %v", s.files)
			}
			// The original passes: a FAIL on a mutant then means the
			// mutant, not the setup.
			rep, env := runEither(t, s.config(t, mutantHandler(t, s, files), setupOf(s, files)))
			if env != nil {
				t.Fatalf("the original: no verdict: %v\n%s", env, strings.Join(env.Tail, "\n"))
			}
			if rep.Verdict != VerdictPass {
				dumpOnFailure(t, rep)
				t.Fatalf("the original: verdict %s, failed %v", rep.Verdict, failedChecks(rep))
			}
			for _, name := range names {
				sg, ok := mutant.Lookup(name)
				if !ok {
					t.Errorf("mutant %s names no safeguard of internal/mutant", name)
					continue
				}
				m, err := mutant.Apply(files, name)
				if err != nil {
					t.Fatal(err)
				}
				res := runMutant(t, s, sg, m)
				mu.Lock()
				results = append(results, res)
				mu.Unlock()
				reason, listed := mutantsUncaught[s.name+"/"+name]
				switch {
				case !res.caught && !listed:
					t.Errorf("mutant %s (%s removed) passed: %s", name, sg.What, res.how)
				case res.caught && listed:
					t.Errorf("mutant %s is caught now (%s): remove it from mutantsUncaught and the docs (%q)", name, res.how, reason)
				}
			}
		})
	}
}

// runMutant runs restart-test on one mutant: caught when the verdict is
// FAIL with a check that shows the removed safeguard.
func runMutant(t *testing.T, s mutationSubject, sg mutant.Safeguard, files map[string][]byte) mutationResult {
	t.Helper()
	res := mutationResult{subject: s.name, mutant: sg.Name}
	cfg := s.config(t, mutantHandler(t, s, files), setupOf(s, files))
	rep, env := runEither(t, cfg)
	if env != nil {
		res.how = "no verdict: " + env.Error()
		return res
	}
	var failed []string
	for k := range failedChecks(rep) {
		failed = append(failed, k)
		_, check, _ := strings.Cut(k, "/")
		if slices.Contains(sg.Checks, check) {
			res.caught = true
		}
	}
	slices.Sort(failed)
	res.how = "verdict " + rep.Verdict
	if len(failed) > 0 {
		res.how += ": " + strings.Join(failed, ", ")
	}
	return res
}

func runEither(t *testing.T, cfg Config) (*Report, *EnvError) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	rep, err := Run(ctx, cfg)
	if err == nil {
		return rep, nil
	}
	if env, ok := err.(*EnvError); ok {
		return nil, env
	}
	t.Fatal(err)
	return nil, nil
}

func setupOf(s mutationSubject, files map[string][]byte) string {
	for _, f := range s.files {
		if strings.HasSuffix(f, ".sql") {
			return string(files[f])
		}
	}
	return ""
}

// mutantHandler is the command of the handler made of files: a script
// written out, or the Go package built with the files overlaid.
func mutantHandler(t *testing.T, s mutationSubject, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	if s.pkg == "" {
		path := filepath.Join(dir, filepath.Base(s.files[0]))
		if err := os.WriteFile(path, files[s.files[0]], 0o755); err != nil {
			t.Fatal(err)
		}
		interp := "sh"
		if s.interp != nil {
			interp = s.interp(t)
		}
		return interp + " " + shellQuote(path)
	}
	replace := map[string]string{}
	for _, f := range s.files {
		if !strings.HasSuffix(f, ".go") {
			continue
		}
		orig, err := filepath.Abs(filepath.Join("..", "testdata", "restart", f))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, strings.ReplaceAll(f, "/", "_"))
		if err := os.WriteFile(path, files[f], 0o644); err != nil {
			t.Fatal(err)
		}
		replace[orig] = path
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	ovPath := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovPath, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "handler")
	if err := testenv.BuildProgramOverlay("..", "./"+s.pkg, exe, ovPath); err != nil {
		t.Fatal(err)
	}
	return shellQuote(exe)
}

// logMutationTable prints the handlers × mutants table and the score.
func logMutationTable(t *testing.T, results []mutationResult) {
	if len(results) == 0 {
		return
	}
	var b strings.Builder
	caught := 0
	fmt.Fprintf(&b, "mutation table (default plan):\n")
	for _, r := range results {
		mark := "caught    "
		if r.caught {
			caught++
		} else {
			mark = "NOT caught"
		}
		fmt.Fprintf(&b, "  %-40s %-18s %s  %s\n", r.subject, r.mutant, mark, r.how)
	}
	fmt.Fprintf(&b, "score: %d of %d mutants caught", caught, len(results))
	t.Log(b.String())
}

// TestMutantBreakageByHand runs scripts/mutant-breakage.py: the self-check,
// without idemcheck, that every mutant of the example handlers of
// mutationSubjects really breaks something (and the one listed as breaking nothing does
// not), by scenarios written out by hand against its own fake provider.
// It is the oracle of TestMutantsAreCaught's table, not a use of it.
func TestMutantBreakageByHand(t *testing.T) {
	testenv.SkipUnlessFull(t, "the mutants' breakage by hand")
	t.Parallel()
	python(t)
	node(t)
	cmd := exec.Command("/usr/bin/python3", filepath.Join("..", "scripts", "mutant-breakage.py"))
	cmd.Env = append(os.Environ(), "IDEMCHECK_TEST_DATABASE="+dsn(t), "AMQP_URL="+amqpURL(t))
	out, err := cmd.CombinedOutput()
	t.Logf("breakage by hand:\n%s", out)
	if err != nil {
		t.Fatalf("scripts/mutant-breakage.py: %v (an original broke, or a mutant broke nothing: see the lines marked BAD)", err)
	}
}
