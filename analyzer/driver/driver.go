// Package driver runs the idemcheck analyzers over packages by driving
// `go vet -vettool=<idemcheck> -json`. go vet brings the build cache (an
// unchanged package is not analyzed again), per-package parallelism and
// the go command's own package loading; idemcheck answers go vet through
// the unitchecker protocol (see IsVetToolInvocation) and this package
// turns vet's JSON into report.Findings.
package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/report"
)

// Options say what to analyze and how.
type Options struct {
	Dir           string   // working directory; "" means the current one
	Patterns      []string // package patterns; default ./...
	Tags          string   // build tags, comma-separated
	Tests         bool     // report findings in _test.go files too
	AnalyzerFlags []string // passed to the vet tool, e.g. -IDEM001.keypattern=…
	Tool          string   // the vet tool; default os.Executable()
	Go            string   // the go command; default "go"
	Env           []string // extra environment, KEY=VALUE
}

// LoadError reports packages that failed to load or type-check; Output is
// what the go command said.
type LoadError struct {
	Output string
}

func (e *LoadError) Error() string {
	lines := strings.Split(strings.TrimSpace(e.Output), "\n")
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return "packages failed to load or type-check: " + l
		}
	}
	return "packages failed to load or type-check"
}

// vetDiagnostic is one entry of go vet's -json output (the JSONDiagnostic
// shape of golang.org/x/tools/go/analysis/internal/analysisflags).
type vetDiagnostic struct {
	Category string `json:"category"`
	Posn     string `json:"posn"`
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
}

// Run analyzes the packages and returns the findings, sorted and without
// duplicates, with file names relative to the working directory.
func Run(ctx context.Context, opts Options) ([]report.Finding, error) {
	tool := opts.Tool
	if tool == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("cannot find the idemcheck executable for go vet: %w", err)
		}
		tool = exe
	}
	goCmd := opts.Go
	if goCmd == "" {
		goCmd = "go"
	}
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	args := []string{"vet", "-vettool=" + tool, "-json"}
	if opts.Tags != "" {
		args = append(args, "-tags="+opts.Tags)
	}
	args = append(args, opts.AnalyzerFlags...)
	args = append(args, "--")
	args = append(args, patterns...)

	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = opts.Dir
	cmd.Env = append(os.Environ(), opts.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if runErr != nil {
		var exitErr *exec.ExitError
		if !errors.As(runErr, &exitErr) {
			return nil, fmt.Errorf("cannot run go vet: %w", runErr)
		}
		// With -json, diagnostics do not fail go vet: a failure is a
		// package that does not load, parse or type-check.
		return nil, &LoadError{Output: stderr.String()}
	}

	dir := opts.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir, _ = filepath.Abs(dir)
	findings, err := parse(&stdout, dir)
	if err != nil {
		return nil, err
	}
	if !opts.Tests {
		kept := findings[:0]
		for _, f := range findings {
			if !strings.HasSuffix(f.File, "_test.go") {
				kept = append(kept, f)
			}
		}
		findings = kept
	}
	report.Sort(findings)
	return report.Dedup(findings), nil
}

// parse reads the stream of JSON objects go vet prints, one per package:
// {"pkgpath": {"analyzer": [diagnostics] | {"error": "…"}}}.
func parse(r io.Reader, dir string) ([]report.Finding, error) {
	dec := json.NewDecoder(r)
	var findings []report.Finding
	var analysisErrors []string
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("cannot read go vet output: %w", err)
		}
		pkgs := make([]string, 0, len(tree))
		for p := range tree {
			pkgs = append(pkgs, p)
		}
		sort.Strings(pkgs)
		for _, pkg := range pkgs {
			names := make([]string, 0, len(tree[pkg]))
			for n := range tree[pkg] {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, name := range names {
				raw := tree[pkg][name]
				var diags []vetDiagnostic
				if err := json.Unmarshal(raw, &diags); err != nil {
					var e struct {
						Error string `json:"error"`
					}
					if json.Unmarshal(raw, &e) == nil && e.Error != "" {
						analysisErrors = append(analysisErrors, fmt.Sprintf("%s: %s: %s", pkg, name, e.Error))
						continue
					}
					return nil, fmt.Errorf("cannot read go vet output for %s: %w", pkg, err)
				}
				for _, d := range diags {
					findings = append(findings, toFinding(d, name, dir))
				}
			}
		}
	}
	if len(analysisErrors) > 0 {
		return nil, &LoadError{Output: strings.Join(analysisErrors, "\n")}
	}
	return findings, nil
}

// toFinding converts one of go vet's diagnostics; an analyzer is named after
// its rule, so the analyzer's name is the finding's rule.
func toFinding(d vetDiagnostic, analyzer, dir string) report.Finding {
	rule := d.Category
	if rule == "" {
		rule = analyzer
	}
	f := report.Finding{Rule: rule, Message: d.Message, Related: []report.Related{}}
	f.File, f.Line, f.Column = splitPosn(d.Posn, dir)
	for _, r := range d.Related {
		rel := report.Related{Message: r.Message}
		rel.File, rel.Line, rel.Column = splitPosn(r.Posn, dir)
		f.Related = append(f.Related, rel)
	}
	return f
}

// splitPosn parses "file:line:col" (the file may contain colons) and makes
// the file relative to dir when it lies inside it.
func splitPosn(posn, dir string) (string, int, int) {
	file, line, col := posn, 0, 0
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		if n, err := strconv.Atoi(file[i+1:]); err == nil {
			file, col = file[:i], n
			if j := strings.LastIndexByte(file, ':'); j >= 0 {
				if n, err := strconv.Atoi(file[j+1:]); err == nil {
					file, line = file[:j], n
				} else {
					line, col = col, 0
				}
			} else {
				line, col = col, 0
			}
		}
	}
	if dir != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.ToSlash(rel)
		}
	}
	return file, line, col
}
