package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/idemcheck/idemcheck/internal/testenv"
)

// action is the part of action.yml the test reads.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Env   map[string]string `yaml:"env"`
}

// runner plays the part of the GitHub Actions runner for the run: steps of
// a composite action: ${{ }} references in env, GITHUB_OUTPUT per step,
// GITHUB_PATH, and bash as the runner starts it.
type runner struct {
	t        *testing.T
	ctx      map[string]string // inputs.NAME, github.NAME, steps.ID.outputs.NAME
	dir, tmp string
	path     []string // GITHUB_PATH entries, newest first
}

var expression = regexp.MustCompile(`^\$\{\{\s*([\w.-]+)\s*\}\}$`)

// eval resolves a value that is one ${{ reference }}, or a literal.
func (r *runner) eval(v string) string {
	m := expression.FindStringSubmatch(v)
	if m == nil {
		if strings.Contains(v, "${{") {
			r.t.Fatalf("the test runner resolves only plain references, not %q", v)
		}
		return v
	}
	val, ok := r.ctx[m[1]]
	if !ok {
		r.t.Fatalf("the test runner does not know %s", m[1])
	}
	return val
}

// run runs a step's script and returns its exit code and output.
func (r *runner) run(s actionStep) (int, string) {
	r.t.Helper()
	if s.Shell != "bash" {
		r.t.Fatalf("step %q: shell %q; the action's steps are bash", s.Name, s.Shell)
	}
	if strings.Contains(s.Run, "${{") {
		r.t.Fatalf("step %q: ${{ }} inside run: would let an input inject shell code; pass it through env", s.Name)
	}
	output := filepath.Join(r.tmp, "output-"+s.ID)
	ghPath := filepath.Join(r.tmp, "path")
	env := []string{
		"PATH=" + strings.Join(append(slices.Clone(r.path), os.Getenv("PATH")), string(os.PathListSeparator)),
		"HOME=" + os.Getenv("HOME"), "GOBIN=" + filepath.Join(r.tmp, "bin"), "NO_COLOR=1",
		"GITHUB_ACTIONS=true", "GITHUB_WORKSPACE=" + r.dir, "RUNNER_TEMP=" + r.tmp,
		"GITHUB_OUTPUT=" + output, "GITHUB_PATH=" + ghPath,
	}
	for _, name := range []string{"GOCACHE", "GOPATH", "GOMODCACHE", "GOFLAGS", "GOPROXY", "TMPDIR"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	for k, v := range s.Env {
		env = append(env, k+"="+r.eval(v))
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
	cmd.Dir, cmd.Env = r.dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatalf("step %q: %v", s.Name, err)
	}
	if data, err := os.ReadFile(output); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				r.ctx["steps."+s.ID+".outputs."+k] = v
			}
		}
	}
	if data, err := os.ReadFile(ghPath); err == nil {
		r.path = nil
		for _, p := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			r.path = append([]string{p}, r.path...)
		}
	}
	return code, out.String()
}

func readAction(t *testing.T) action {
	t.Helper()
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// TestAction runs action.yml's script steps as the runner would, with the
// action checked out here (uses: ./) and the input packages set to the
// demo: the install step builds idemcheck, the lint step writes SARIF that
// validates against the SARIF 2.1.0 schema and holds the demo's finding,
// the upload step hands that file to upload-sarif, and the verdict step
// fails the job on findings unless fail-on-findings is false.
func TestAction(t *testing.T) {
	testenv.SkipIfShort(t, "builds idemcheck and lints the demo")
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", a.Runs.Using)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{t: t, dir: root, tmp: t.TempDir(), ctx: map[string]string{
		"github.action_ref": "", "github.action_path": root,
	}}
	for name, in := range a.Inputs {
		r.ctx["inputs."+name] = in.Default
	}
	if r.ctx["inputs.packages"] != "./..." {
		t.Errorf("default packages %q, want ./...", r.ctx["inputs.packages"])
	}
	r.ctx["inputs.packages"] = "./examples/demo/..."

	steps := map[string]actionStep{}
	for _, s := range a.Runs.Steps {
		steps[s.Name] = s
	}
	install, lint, upload, verdict := steps["Install idemcheck"], steps["Lint"], steps["Upload to code scanning"], steps["Verdict"]
	if install.Run == "" || lint.Run == "" || verdict.Run == "" || upload.Uses == "" {
		t.Fatalf("action.yml lacks a step: %+v", a.Runs.Steps)
	}

	if code, out := r.run(install); code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(r.tmp, "bin", "idemcheck")); err != nil || len(r.path) == 0 || r.path[0] != filepath.Join(r.tmp, "bin") {
		t.Fatalf("install put no idemcheck on GITHUB_PATH (%v, %v)", err, r.path)
	}

	if code, out := r.run(lint); code != 0 {
		t.Fatalf("lint step: exit %d (findings must not stop the upload)\n%s", code, out)
	}
	if got := r.ctx["steps.lint.outputs.exit-code"]; got != "1" {
		t.Errorf("exit-code output %q, want 1 (the demo's finding)", got)
	}
	sarifFile := r.ctx["steps.lint.outputs.sarif-file"]
	data, err := os.ReadFile(sarifFile)
	if err != nil {
		t.Fatalf("sarif-file output %q: %v", sarifFile, err)
	}
	validateSARIF(t, data)
	for _, want := range []string{`"ruleId": "IDEM001"`, `"uri": "examples/demo/main.go"`, `"startLine": 46`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the SARIF lacks %s:\n%s", want, data)
		}
	}

	if !strings.HasPrefix(upload.Uses, "github/codeql-action/upload-sarif@") || upload.With["sarif_file"] != "${{ steps.lint.outputs.sarif-file }}" ||
		r.eval(upload.With["category"]) != "idemcheck" || !strings.Contains(upload.If, "always()") {
		t.Errorf("the upload step does not upload lint's SARIF whatever lint's exit: %+v", upload)
	}

	code, out := r.run(verdict)
	if code != 1 || !strings.Contains(out, "::error title=idemcheck::lint reported findings") {
		t.Errorf("verdict on findings: exit %d\n%s", code, out)
	}
	r.ctx["inputs.fail-on-findings"] = "false"
	if code, out := r.run(verdict); code != 0 {
		t.Errorf("verdict with fail-on-findings false: exit %d\n%s", code, out)
	}
	r.ctx["steps.lint.outputs.exit-code"] = "2"
	if code, out := r.run(verdict); code != 2 || !strings.Contains(out, "not every package was analyzed") {
		t.Errorf("verdict on exit 2: exit %d\n%s", code, out)
	}
}

func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the SARIF is not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the SARIF does not validate against SARIF 2.1.0: %v", err)
	}
}

// preCommitHook is one entry of .pre-commit-hooks.yaml.
type preCommitHook struct {
	ID            string   `yaml:"id"`
	Language      string   `yaml:"language"`
	Entry         string   `yaml:"entry"`
	Args          []string `yaml:"args"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	Types         []string `yaml:"types"`
}

// TestPreCommitHook does what pre-commit does with the hook: for language
// golang it runs `go install ./...` in the hook's repository, puts the
// result on PATH, and runs entry with args (no file names) in the repository
// being committed: here a module with the demo's bug (exit 1, the finding)
// and one without (exit 0).
func TestPreCommitHook(t *testing.T) {
	testenv.SkipIfShort(t, "builds idemcheck and lints two modules")
	data, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	if len(hooks) != 1 {
		t.Fatalf("%d hooks, want idemcheck-lint", len(hooks))
	}
	h := hooks[0]
	if h.ID != "idemcheck-lint" || h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames || !slices.Equal(h.Types, []string{"go"}) {
		t.Fatalf("hook %+v: want idemcheck-lint, language golang, pass_filenames false, types [go]", h)
	}

	bin := t.TempDir()
	install := exec.Command("go", "install", "./...")
	install.Env = append(os.Environ(), "GOBIN="+bin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./... (what pre-commit runs): %v\n%s", err, out)
	}
	demo, err := os.ReadFile(filepath.Join("examples", "demo", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(mainGo string) (int, string) {
		dir := t.TempDir()
		for name, body := range map[string]string{"go.mod": "module example.com/shop\n\ngo 1.22\n", "main.go": mainGo} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		fields := strings.Fields(h.Entry)
		cmd := exec.Command(filepath.Join(bin, fields[0]), append(fields[1:], h.Args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1")
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := run(string(demo)); code != 1 || !strings.Contains(out, "IDEM001 idempotency key built from rand.Read") {
		t.Errorf("hook on the demo: exit %d\n%s", code, out)
	}
	if code, out := run("package main\n\nfunc main() {}\n"); code != 0 || !strings.Contains(out, "✓ no findings") {
		t.Errorf("hook on a clean module: exit %d\n%s", code, out)
	}
}
