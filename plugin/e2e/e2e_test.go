package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// finding is one report of either tool: the rule, where, and what it says.
type finding struct {
	Rule, File   string
	Line, Column int
	Message      string
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d:%d %s %s", f.File, f.Line, f.Column, f.Rule, f.Message)
}

// TestGolangciLintMatchesLint builds golangci-lint with the idemcheck
// module plugin for real and runs it on testdata/fixture: it must report
// exactly what `idemcheck lint` reports there (rule, file, line, column and
// message), and both must report exactly the lines marked "want RULE".
// The test is skipped only when the build is impossible here (the script
// exits 3: no Go module proxy).
func TestGolangciLintMatchesLint(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fixture, err := filepath.Abs(filepath.Join("testdata", "fixture"))
	if err != nil {
		t.Fatal(err)
	}
	gcl := buildCustom(t, root)

	want := wanted(t, fixture)
	lint := lintFindings(t, root, fixture)
	got := golangciFindings(t, gcl, fixture)

	rules := map[string]bool{}
	for _, f := range want {
		rules[f.Rule] = true
	}
	if len(rules) < 3 {
		t.Fatalf("the fixture marks findings of %d rules; it must cover several", len(rules))
	}
	if w, l := where(want), where(lint); !slices.Equal(w, l) {
		t.Errorf("idemcheck lint does not report what the fixture marks:\nmarked:\n%s\nreported:\n%s", lines(w), lines(l))
	}
	if !slices.Equal(got, lint) {
		t.Errorf("golangci-lint with the plugin:\n%s\nidemcheck lint:\n%s", lines(got), lines(lint))
	}
	t.Logf("%d findings of %d rules marked; idemcheck lint %d, golangci-lint %d", len(want), len(rules), len(lint), len(got))
}

// buildCustom runs plugin/build-golangci-lint.sh and returns the path of
// the custom golangci-lint it built (or found in its cache).
func buildCustom(t *testing.T, root string) string {
	t.Helper()
	cmd := exec.Command("bash", filepath.Join(root, "plugin", "build-golangci-lint.sh"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && exit.ExitCode() == 3 {
		t.Skipf("cannot build golangci-lint here: %s", strings.TrimSpace(stderr.String()))
	}
	if err != nil {
		t.Fatalf("plugin/build-golangci-lint.sh: %v\n%s", err, stderr.String())
	}
	gcl := strings.TrimSpace(string(out))
	t.Logf("custom golangci-lint %s (%s)", gcl, time.Since(start).Round(time.Second))
	return gcl
}

var wantComment = regexp.MustCompile(`// want (IDEM\d{3})$`)

// wanted returns the findings the fixture marks with "// want RULE" at the
// end of a line: rule, file and line only.
func wanted(t *testing.T, dir string) []finding {
	t.Helper()
	var want []finding
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for n := 1; sc.Scan(); n++ {
			if m := wantComment.FindStringSubmatch(sc.Text()); m != nil {
				want = append(want, finding{Rule: m[1], File: filepath.ToSlash(rel), Line: n})
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return sorted(want)
}

// lintFindings builds idemcheck from root and runs `idemcheck lint --format
// json ./...` in dir.
func lintFindings(t *testing.T, root, dir string) []finding {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "idemcheck")
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build idemcheck: %v\n%s", err, out)
	}
	cmd := exec.Command(exe, "lint", "--format", "json", "./...")
	cmd.Dir = dir
	out := runWithFindings(t, cmd)
	var doc struct{ Findings []finding }
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("idemcheck lint --format json: %v\n%s", err, out)
	}
	return sorted(doc.Findings)
}

// golangciFindings runs the custom golangci-lint in dir (with the dir's
// .golangci.yml) and returns its issues, leaving out the related
// information it reports as issues of their own.
func golangciFindings(t *testing.T, gcl, dir string) []finding {
	t.Helper()
	cmd := exec.Command(gcl, "run", "--output.json.path=stdout", "--show-stats=false", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir())
	out := runWithFindings(t, cmd)
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
		t.Fatalf("golangci-lint run: %v\n%s", err, out)
	}
	var fs []finding
	for _, i := range doc.Issues {
		if i.FromLinter != "idemcheck" {
			t.Errorf("issue from linter %q: %s", i.FromLinter, i.Text)
		}
		rule, msg, ok := strings.Cut(i.Text, ": ")
		if !ok {
			t.Errorf("issue without a rule: %s", i.Text)
		}
		if strings.HasSuffix(rule, "(related information)") {
			continue
		}
		fs = append(fs, finding{Rule: rule, File: filepath.ToSlash(i.Pos.Filename), Line: i.Pos.Line, Column: i.Pos.Column, Message: msg})
	}
	return sorted(fs)
}

// runWithFindings runs cmd, which must exit 1 (findings), and returns its
// standard output.
func runWithFindings(t *testing.T, cmd *exec.Cmd) []byte {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if exit := (*exec.ExitError)(nil); !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("%s: %v (want exit status 1: findings)\n%s%s", strings.Join(cmd.Args, " "), err, out, stderr.String())
	}
	return out
}

// where keeps rule, file and line.
func where(fs []finding) []finding {
	var w []finding
	for _, f := range fs {
		w = append(w, finding{Rule: f.Rule, File: f.File, Line: f.Line})
	}
	return w
}

func sorted(fs []finding) []finding {
	slices.SortFunc(fs, func(a, b finding) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		return strings.Compare(a.Rule+a.Message, b.Rule+b.Message)
	})
	return fs
}

func lines(fs []finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\t" + f.String() + "\n")
	}
	return b.String()
}
