package golangci

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fixture has findings of several rules, in two packages, plus a test
// file and a generated file whose findings neither tool reports by
// default.
var fixture = map[string]string{
	"go.mod": "module example.com/fixture\n\ngo 1.22\n",
	"pay/pay.go": `package pay

import (
	"fmt"
	"net/http"
	"time"
)

type Req struct {
	IdempotencyKey string
}

func Charge(r *http.Request, order string) {
	r.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", order, time.Now().UnixNano()))
}

func Amount(order string, amount float64) Req {
	return Req{IdempotencyKey: fmt.Sprintf("%s:%v", order, amount)}
}

func Stable(order string) Req { return Req{IdempotencyKey: "order:" + order} }
`,
	"store/store.go": `package store

import (
	"context"
	"database/sql"
)

func Lookup(ctx context.Context, db *sql.DB, key string) *sql.Row {
	return db.QueryRowContext(ctx, "SELECT response FROM idempotency_keys WHERE idempotency_key = $1", key)
}
`,
	"pay/pay_test.go": `package pay

import (
	"testing"
	"time"
)

func TestKey(t *testing.T) { _ = Req{IdempotencyKey: time.Now().String()} }
`,
	".golangci.yml": `version: "2"
run:
  tests: false
linters:
  default: none
  enable: [idemcheck]
  settings:
    custom:
      idemcheck:
        type: module
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
  uniq-by-line: false
`,
}

type issue struct {
	File, Rule, Message string
	Line, Column        int
}

// TestCustomGolangciLint builds golangci-lint with this plugin for real
// (plugin/build-golangci-lint.sh, cached between runs) and checks that it
// reports on a fixture module exactly what `idemcheck lint` reports.
func TestCustomGolangciLint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint")
	}
	if os.Getenv("IDEMCHECK_GOLANGCI") == "" {
		// A cold build of golangci-lint takes minutes: opt in (the binary
		// is cached afterwards, keyed by idemcheck's sources).
		t.Skip("set IDEMCHECK_GOLANGCI=1 to build golangci-lint with the plugin and compare it with idemcheck lint")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("bash", filepath.Join(root, "plugin", "build-golangci-lint.sh"))
	var stderr bytes.Buffer
	build.Stderr = &stderr
	start := time.Now()
	out, err := build.Output()
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) && exitErr.ExitCode() == 3 {
		t.Skipf("cannot build golangci-lint here (no module proxy?): %s", lastLine(stderr.String()))
	} else if err != nil {
		t.Fatalf("build-golangci-lint.sh: %v\n%s", err, stderr.String())
	}
	gcl := strings.TrimSpace(string(out))
	t.Logf("custom golangci-lint %s (%s)", gcl, time.Since(start).Round(time.Second))

	dir := t.TempDir()
	for name, body := range fixture {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	got := golangciIssues(t, gcl, dir)
	want := lintIssues(t, root, dir)
	if len(want) < 3 {
		t.Fatalf("idemcheck lint found only %d findings on the fixture: %+v", len(want), want)
	}
	if !slices.Equal(got, want) {
		t.Errorf("golangci-lint with the plugin:\n%s\nidemcheck lint:\n%s", show(got), show(want))
	}
}

func golangciIssues(t *testing.T, gcl, dir string) []issue {
	cmd := exec.Command(gcl, "run", "--output.json.path=stdout", "--show-stats=false", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output() // exit 1 means issues
	var doc struct {
		Issues []struct {
			FromLinter, Text string
			Pos              struct {
				Filename     string
				Line, Column int
			}
		}
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("golangci-lint output: %v\n%s\n%s", err, out, stderr.String())
	}
	var issues []issue
	for _, i := range doc.Issues {
		analyzer, msg, _ := strings.Cut(i.Text, ": ")
		if strings.HasSuffix(analyzer, "(related information)") {
			continue
		}
		issues = append(issues, issue{File: filepath.ToSlash(i.Pos.Filename), Rule: analyzer, Message: msg, Line: i.Pos.Line, Column: i.Pos.Column})
	}
	return sorted(issues)
}

func lintIssues(t *testing.T, root, dir string) []issue {
	exe := filepath.Join(t.TempDir(), "idemcheck")
	if out, err := exec.Command("go", "build", "-o", exe, root).CombinedOutput(); err != nil {
		t.Fatalf("go build idemcheck: %v\n%s", err, out)
	}
	cmd := exec.Command(exe, "lint", "--format", "json", "./...")
	cmd.Dir = dir
	out, _ := cmd.Output()
	var doc struct{ Findings []issue }
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("idemcheck lint output: %v\n%s", err, out)
	}
	return sorted(doc.Findings)
}

func sorted(is []issue) []issue {
	slices.SortFunc(is, func(a, b issue) int {
		return strings.Compare(show([]issue{a}), show([]issue{b}))
	})
	return is
}

func show(is []issue) string {
	var b strings.Builder
	for _, i := range is {
		b.WriteString(strings.Join([]string{i.File, strconv.Itoa(i.Line), strconv.Itoa(i.Column), i.Rule, i.Message}, ":") + "\n")
	}
	return b.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
