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
	"slices"
	"strings"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// listedPackage is the part of `go list -json` the driver reads.
type listedPackage struct {
	ImportPath   string
	Name         string
	Dir          string
	Standard     bool
	DepOnly      bool
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Error        *packageError
	DepsErrors   []*packageError
}

type packageError struct {
	ImportStack []string
	Pos         string
	Err         string
}

// plan is what the driver learns from go list before running go vet.
type plan struct {
	roots    []*listedPackage // packages that load, to analyze
	rootSet  map[string]bool  // their import paths
	errors   []PackageError   // packages that do not load, each error once
	total    int              // non-standard packages go vet will analyze (for progress)
	testDels []string         // absolute paths of test files to hide from go vet
	testOnly int              // packages left out because they have only test files
	// testSupport holds the directories of packages that only tests
	// import (e2e helpers): test code, reported only with --tests.
	testSupport map[string]bool
}

// ErrNoPackages says the patterns named no package to analyze: analyzing
// nothing must not pass for a clean verdict.
type ErrNoPackages struct {
	Patterns []string
	TestOnly bool // packages matched, but only with _test.go files (no --tests)
}

func (e *ErrNoPackages) Error() string {
	ps := strings.Join(e.Patterns, " ")
	if e.TestOnly {
		return fmt.Sprintf("%s matched only _test.go files: add --tests to analyze them", ps)
	}
	return fmt.Sprintf("%s matched no Go packages: give patterns that name directories with .go files, such as ./... inside the module", ps)
}

// ErrNoModule says the working directory is not inside a Go module.
type ErrNoModule struct{ Dir string }

func (e *ErrNoModule) Error() string {
	return fmt.Sprintf("no go.mod in %s or any parent directory: run lint inside a Go module, or create one with `go mod init MODULE`", e.Dir)
}

// list runs `go list -e` on the patterns: root packages that load go on to
// go vet, the others become PackageErrors (listed once each, even when
// many packages depend on the broken one).
func list(ctx context.Context, opts Options, goCmd, dir string) (*plan, error) {
	args := []string{"list", "-e", "-json=ImportPath,Name,Dir,Standard,DepOnly,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,Imports,TestImports,XTestImports,Error,DepsErrors"}
	if opts.Progress != nil {
		args = append(args, "-deps")
	}
	if opts.Tags != "" {
		args = append(args, "-tags="+opts.Tags)
	}
	args = append(args, "--")
	args = append(args, opts.patterns()...)
	cmd := exec.Command(goCmd, args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// In a process group, like go vet: a cancelled run stops what go
	// list started too.
	g, err := procgroup.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("cannot run go list: %w", err)
	}
	stop := context.AfterFunc(ctx, g.Kill)
	err = g.Wait()
	stop()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			return nil, fmt.Errorf("cannot run go list: %w", err)
		}
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "go.mod file not found") || strings.Contains(msg, "cannot find main module") {
			return nil, &ErrNoModule{Dir: dir}
		}
		return nil, fmt.Errorf("go list: %s", firstLine(msg))
	}
	p := &plan{rootSet: map[string]bool{}}
	seen := map[string]bool{}
	addError := func(pkg string, e *packageError) {
		msg := strings.TrimSpace(e.Err)
		if e.Pos != "" && !strings.HasPrefix(msg, e.Pos) {
			msg = relPos(e.Pos, dir) + ": " + msg
		}
		if len(e.ImportStack) > 0 {
			pkg = e.ImportStack[len(e.ImportStack)-1]
		}
		if key := pkg + "\x00" + msg; !seen[key] {
			seen[key] = true
			p.errors = append(p.errors, PackageError{Package: pkg, Message: msg})
		}
	}
	var listed []*listedPackage
	dec := json.NewDecoder(&stdout)
	for {
		var lp listedPackage
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("cannot read go list output: %w", err)
		}
		if !lp.Standard {
			p.total++
		}
		if lp.DepOnly {
			continue
		}
		listed = append(listed, &lp)
		if lp.Error != nil || len(lp.DepsErrors) > 0 {
			if lp.Error != nil {
				addError(lp.ImportPath, lp.Error)
			}
			for _, e := range lp.DepsErrors {
				addError(lp.ImportPath, e)
			}
			continue
		}
		if !opts.Tests {
			if len(lp.GoFiles)+len(lp.CgoFiles) == 0 {
				p.testOnly++
				continue // only test files: nothing to analyze without --tests
			}
			for _, f := range append(lp.TestGoFiles, lp.XTestGoFiles...) {
				p.testDels = append(p.testDels, filepath.Join(lp.Dir, f))
			}
		}
		p.roots = append(p.roots, &lp)
		p.rootSet[lp.ImportPath] = true
	}
	if opts.Tests {
		p.total += len(p.roots) // test variants
	}
	p.testSupport = testSupport(listed)
	if len(p.roots) == 0 && len(p.errors) > 0 && !inModule(ctx, opts, goCmd) {
		return nil, &ErrNoModule{Dir: dir}
	}
	return p, nil
}

// inModule reports whether go finds a go.mod (or go.work) for opts.Dir;
// outside one, every pattern fails with a message that never says so.
func inModule(ctx context.Context, opts Options, goCmd string) bool {
	cmd := exec.CommandContext(ctx, goCmd, "env", "GOMOD", "GOWORK")
	cmd.Dir = opts.Dir
	cmd.Env = opts.env()
	out, err := cmd.Output()
	if err != nil {
		return true // cannot tell: let the package errors speak
	}
	gomod, gowork, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	gowork = strings.TrimSpace(gowork)
	return (gomod != "" && gomod != os.DevNull) || (gowork != "" && gowork != "off")
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return s
}

// relPos makes "file:line:col" relative to dir when the file lies inside it.
func relPos(posn, dir string) string {
	file, line, col := splitPosn(posn, dir)
	switch {
	case line == 0:
		return file
	case col == 0:
		return fmt.Sprintf("%s:%d", file, line)
	}
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}

// testSupport returns the directories of the listed packages that only
// tests import, directly or through other such packages: helpers of
// end-to-end tests kept outside _test.go files. A package directly
// imported by tests must import "testing" itself to count, so that a
// library only its own module's tests exercise stays production code; a
// package nothing imports (a public API, a command) is never one.
func testSupport(pkgs []*listedPackage) map[string]bool {
	byTests := map[string]bool{}
	byCode := map[string][]string{} // package → the listed packages importing it from non-test files
	for _, lp := range pkgs {
		for _, imp := range lp.Imports {
			byCode[imp] = append(byCode[imp], lp.ImportPath)
		}
		for _, imp := range append(append([]string(nil), lp.TestImports...), lp.XTestImports...) {
			byTests[imp] = true
		}
	}
	testOnly := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, lp := range pkgs {
			if testOnly[lp.ImportPath] {
				continue
			}
			importers := byCode[lp.ImportPath]
			if len(importers) == 0 && !(byTests[lp.ImportPath] && slices.Contains(lp.Imports, "testing")) {
				continue
			}
			only := true
			for _, imp := range importers {
				if !testOnly[imp] {
					only = false
					break
				}
			}
			if only {
				testOnly[lp.ImportPath] = true
				changed = true
			}
		}
	}
	dirs := map[string]bool{}
	for _, lp := range pkgs {
		if testOnly[lp.ImportPath] {
			dirs[lp.Dir] = true
		}
	}
	return dirs
}

// application reports whether the patterns include a main package: an
// application, whose exported functions no one outside it calls. A
// library's are its users' to call.
func (p *plan) application() bool {
	for _, r := range p.roots {
		if r.Name == "main" {
			return true
		}
	}
	return false
}
