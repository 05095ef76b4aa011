// Package polyglot lints Python and TypeScript/JavaScript: it finds the
// files under lint's patterns, lowers them with the tree-sitter front ends
// (package frontend) into the IR (package ir), resolves imports inside the
// project, and runs the flow engine (package flow) with the key model's
// tables for each language (package keymodel).
package polyglot

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/flow"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/frontend"
	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
	"github.com/idemcheck/idemcheck/analyzer/report"
)

// Options are one run's inputs.
type Options struct {
	Dir       string   // working directory ("" the current one)
	Patterns  []string // ./..., ./svc, ./svc/... (default ./...)
	Languages []string // "python", "typescript"
	Tests     bool     // also analyze test files
	Model     *keymodel.Model
}

// Result is what a run found.
type Result struct {
	Files    map[string]int // files analyzed, by language
	Findings []report.Finding
	Errors   []report.PackageError
}

// Available reports whether this build can parse Python and TypeScript.
func Available() bool { return frontend.Available() }

// Find lists the Python and TypeScript files under the patterns, by
// language, skipping dependencies, build output and generated code.
func Find(opts Options) (map[string][]string, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	want := map[string]bool{}
	for _, l := range opts.Languages {
		want[l] = true
	}
	out := map[string][]string{}
	seen := map[string]bool{}
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	for _, p := range patterns {
		root, recursive := strings.CutSuffix(p, "...")
		root = strings.TrimSuffix(root, "/")
		if root == "" || root == "." {
			root = "."
		}
		if !filepath.IsAbs(root) {
			root = filepath.Join(dir, root)
		}
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if path != root && (!recursive || skipDir(path, d.Name()) || !opts.Tests && testDirs[d.Name()]) {
					return filepath.SkipDir
				}
				return nil
			}
			lang := frontend.LangOf(path)
			if lang == "" || !want[lang] || skipFile(d.Name(), opts.Tests) || seen[path] {
				return nil
			}
			seen[path] = true
			out[lang] = append(out[lang], path)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, fs := range out {
		sort.Strings(fs)
	}
	return out, nil
}

var skippedDirs = map[string]bool{
	"node_modules": true, ".git": true, "venv": true, ".venv": true, "virtualenv": true, "site-packages": true,
	"dist": true, "build": true, "out": true, ".next": true, ".nuxt": true, "coverage": true, "vendor": true,
	"vendored": true, "third_party": true, "__pycache__": true, ".tox": true, ".nox": true, ".mypy_cache": true,
	".pytest_cache": true, "bower_components": true, ".yarn": true, ".pnpm-store": true, "generated": true,
	"__generated__": true,
	// As go's ./... does: test fixtures and hidden directories. Unlike
	// Go, a leading _ hides nothing here: Python's private packages
	// (_internal/) and Supabase's shared edge-function code (_shared/)
	// are the service's own.
	"testdata": true,
}

func skipDir(path, name string) bool {
	if skippedDirs[name] || (strings.HasPrefix(name, ".") && name != ".") {
		return true
	}
	// A virtualenv under any name.
	if _, err := os.Stat(filepath.Join(path, "pyvenv.cfg")); err == nil {
		return true
	}
	return false
}

func skipFile(name string, tests bool) bool {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".d.ts"), strings.Contains(lower, ".min."), strings.HasSuffix(lower, "_pb2.py"), strings.HasSuffix(lower, ".pb.ts"), strings.HasSuffix(lower, "_pb.js"):
		return true
	}
	if tests {
		return false
	}
	return isTestFile(lower)
}

// Test code, skipped unless --tests as Go's _test.go files are: pytest's
// and unittest's files, Jest/Vitest/Mocha specs, test scripts
// (scripts/test-e2e.js), and the directories that hold only tests.
var (
	testPrefixes = []string{"test_", "test-"}
	testSuffixes = []string{"_test.py", "_tests.py"}
	testInfixes  = []string{".test.", ".spec.", ".e2e.", "-test.", "-spec."}
	testNames    = map[string]bool{"conftest.py": true}
	testDirs     = map[string]bool{"tests": true, "test": true, "__tests__": true, "__mocks__": true, "__fixtures__": true, "spec": true, "e2e": true}
)

func isTestFile(lower string) bool {
	if testNames[lower] {
		return true
	}
	for _, p := range testPrefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	for _, sfx := range testSuffixes {
		if strings.HasSuffix(lower, sfx) {
			return true
		}
	}
	for _, in := range testInfixes {
		if strings.Contains(lower, in) {
			return true
		}
	}
	return false
}

// Run lints the files Find lists.
func Run(opts Options) (*Result, error) {
	byLang, err := Find(opts)
	if err != nil {
		return nil, err
	}
	res := &Result{Files: map[string]int{}}
	var paths []string
	for lang, fs := range byLang {
		res.Files[lang] = len(fs)
		paths = append(paths, fs...)
	}
	if len(paths) == 0 {
		return res, nil
	}
	if !frontend.Available() {
		return res, frontend.ErrNoCgo
	}
	files, errs := parseAll(paths)
	res.Errors = errs
	var kept []*ir.File
	for _, f := range files {
		if f != nil && !f.Generated && !testFile(f.Path, opts.Tests) && (opts.Tests || !testSupport(f)) {
			kept = append(kept, f)
		}
	}
	r := newResolver(kept)
	model := opts.Model
	if model == nil {
		model = keymodel.Default()
	}
	source := func(f *ir.File) []byte {
		src, _ := os.ReadFile(f.Path)
		return src
	}
	res.Findings = flow.Analyze(&flow.Program{Files: kept, Resolve: r.resolve, Model: model, Source: source})
	dir, _ := filepath.Abs(opts.Dir)
	for i, f := range res.Findings {
		res.Findings[i].File = relTo(dir, f.File)
		for j, rel := range f.Related {
			res.Findings[i].Related[j].File = relTo(dir, rel.File)
		}
	}
	return res, nil
}

// testFile reports files under a tests directory: test code is skipped
// unless --tests, as for Go.
func testFile(path string, tests bool) bool {
	if tests {
		return false
	}
	for _, seg := range strings.Split(filepath.ToSlash(path), "/") {
		if seg == "tests" || seg == "__tests__" || seg == "test" {
			return true
		}
	}
	return false
}

// testSupport reports a file that imports a test framework: fixtures and
// base classes outside the test directories, test code all the same.
func testSupport(f *ir.File) bool {
	for _, im := range f.Imports {
		if keymodel.IsTestFramework(f.Lang, im.Module) {
			return true
		}
	}
	return false
}

func relTo(dir, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

func parseAll(paths []string) ([]*ir.File, []report.PackageError) {
	files := make([]*ir.File, len(paths))
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				src, err := os.ReadFile(paths[i])
				if err != nil {
					errs[i] = err
					continue
				}
				abs, _ := filepath.Abs(paths[i])
				files[i], errs[i] = frontend.Parse(abs, src)
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	var perrs []report.PackageError
	for i, err := range errs {
		if err != nil {
			perrs = append(perrs, report.PackageError{Package: paths[i], Message: err.Error()})
		}
	}
	return files, perrs
}
