package cmd

import (
	"fmt"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/polyglot"
	"github.com/idemcheck/idemcheck/analyzer/report"
)

// lintLanguages are the languages --lang accepts.
var lintLanguages = []string{"go", "python", "typescript"}

// parseLangs reads --lang: every language when empty. explicit holds the
// languages the flag named.
func parseLangs(flag string) (langs, explicit map[string]bool, err error) {
	langs, explicit = map[string]bool{}, map[string]bool{}
	if strings.TrimSpace(flag) == "" {
		for _, l := range lintLanguages {
			langs[l] = true
		}
		return langs, explicit, nil
	}
	for _, l := range strings.Split(flag, ",") {
		l = strings.ToLower(strings.TrimSpace(l))
		switch l {
		case "py":
			l = "python"
		case "ts", "js", "javascript", "tsx":
			l = "typescript"
		case "golang":
			l = "go"
		}
		if !contains(lintLanguages, l) {
			return nil, nil, UsageErrorf("--lang: unknown language %q (want a comma-separated list of %s)", l, strings.Join(lintLanguages, ", "))
		}
		langs[l], explicit[l] = true, true
	}
	return langs, explicit, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// otherResult is what linting Python and TypeScript found.
type otherResult struct {
	files    int
	skipped  string // why the files were not analyzed (a build without cgo)
	findings []report.Finding
	errors   []report.PackageError
}

func (r otherResult) found() bool { return r.files > 0 }

// lintOtherLanguages lints the Python and TypeScript/JavaScript files under
// the patterns. A build without cgo has no parser for them: it says so in
// one line, and the run is incomplete when --lang asked for them.
func lintOtherLanguages(opts *LintOptions, cfg *config.Config, langs, explicit map[string]bool) (otherResult, error) {
	var want []string
	for _, l := range []string{"python", "typescript"} {
		if langs[l] {
			want = append(want, l)
		}
	}
	if len(want) == 0 {
		return otherResult{}, nil
	}
	model, err := keymodel.New(cfg)
	if err != nil {
		return otherResult{}, UsageErrorf("invalid config: %v", err)
	}
	popts := polyglot.Options{Dir: opts.Dir, Patterns: opts.Patterns, Languages: want, Tests: opts.Tests, Model: model}
	found, err := polyglot.Find(popts)
	if err != nil {
		return otherResult{}, UsageErrorf("cannot list the files to lint: %v", err)
	}
	n := 0
	for _, fs := range found {
		n += len(fs)
	}
	if n == 0 {
		if explicit["python"] || explicit["typescript"] {
			if !langs["go"] {
				return otherResult{}, UsageErrorf("%s has no %s files to lint (node_modules, virtualenvs, build output, generated and test files are skipped)", strings.Join(patternsOrDefault(opts.Patterns), " "), strings.Join(want, " or "))
			}
		}
		return otherResult{}, nil
	}
	if !polyglot.Available() {
		msg := fmt.Sprintf("%d Python/TypeScript files not analyzed: Python and TypeScript need a cgo build of idemcheck (CGO_ENABLED=1 with a C compiler)", n)
		if explicit["python"] || explicit["typescript"] {
			return otherResult{files: n, errors: []report.PackageError{{Message: msg}}}, nil
		}
		return otherResult{files: n, skipped: msg}, nil
	}
	res, err := polyglot.Run(popts)
	if err != nil {
		return otherResult{}, UsageErrorf("%v", err)
	}
	return otherResult{files: n, findings: res.Findings, errors: res.Errors}, nil
}

func patternsOrDefault(ps []string) []string {
	if len(ps) == 0 {
		return []string{"./..."}
	}
	return ps
}
