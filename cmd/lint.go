package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/driver"
	"github.com/idemcheck/idemcheck/analyzer/filter"
	"github.com/idemcheck/idemcheck/analyzer/report"
	"github.com/idemcheck/idemcheck/analyzer/suite"
	"github.com/idemcheck/idemcheck/internal/input"
	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/internal/ui"
)

// LintOptions are the parsed flags of `idemcheck lint`.
type LintOptions struct {
	IO *iostreams.IOStreams

	Patterns      []string // package patterns, default ./...
	Format        string   // a registered report format: text, json, …
	Tests         bool     // also report findings in test code (_test.go files, testing.TB helpers)
	Tags          string   // build tags
	Explain       string   // print the documentation of a rule and exit
	ConfigPath    string   // --config; "" looks for .idemcheck.yaml upwards from Dir
	AnalyzerFlags []string // extra flags for the vet tool (-IDEM001.keypattern=…)
	Dir           string   // working directory; "" is the current one
	Tool          string   // vet tool executable; "" is idemcheck itself
	Env           []string // extra environment for go (KEY=VALUE); tests set GOCACHE
	NewFromRev    string   // report only findings on lines changed since this git revision
	Baseline      string   // baseline file of accepted findings
	WriteBaseline bool     // write Baseline from this run's findings instead of honouring it
	Langs         string   // --lang: comma-separated languages; "" every language found
	Version       string
	MaxInput      input.Size // cap of --config and --baseline

	baseline *filter.Baseline // read before the analysis
}

// NewCmdLint builds `idemcheck lint`.
func NewCmdLint(ios *iostreams.IOStreams, runF func(*LintOptions) error) *cobra.Command {
	opts := &LintOptions{IO: ios}
	c := &cobra.Command{
		Use:   "lint [packages]",
		Short: "Report per-attempt values flowing into idempotency keys",
		Long: `Analyze Go packages (default ./...) for idempotency keys that do not hold:
keys built from values drawn inside the attempt (uuid, rand, time.Now, the
transport's message id, attempt counters, LLM output), through helpers,
packages and closures.

lint drives go vet -vettool=idemcheck, so unchanged packages come from the
build cache; the verdict does not depend on what earlier runs cached.
Packages that fail to load or type-check are listed, and the others are
still analyzed and reported. Exit status: 0 no findings, 1 findings, 2 some
package not analyzed, no package to analyze, or bad flags.`,
		Example: `  idemcheck lint ./examples/demo/...
  idemcheck lint --format json ./examples/demo/...
  idemcheck lint --explain IDEM001
  idemcheck lint --explain config`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Patterns = args
			if c.Root() != nil {
				opts.Version = c.Root().Version
			}
			if runF != nil {
				return runF(opts)
			}
			return lintRun(opts)
		},
	}
	c.Flags().StringVar(&opts.Format, "format", "text", "output `FORMAT`: "+strings.Join(report.FormatNames(), ", "))
	c.Flags().BoolVar(&opts.Tests, "tests", false, "also report findings in test code (_test.go files, helpers taking a testing.TB)")
	c.Flags().StringVar(&opts.Tags, "tags", "", "comma-separated build `TAGS`")
	c.Flags().StringVar(&opts.Explain, "explain", "", "print the documentation of a `RULE` (e.g. IDEM001), or of "+config.FileName+" with 'config', and exit")
	c.Flags().StringVar(&opts.ConfigPath, "config", "", "configuration `FILE` (default: "+config.FileName+" in the working directory or a parent)")
	c.Flags().StringVar(&opts.NewFromRev, "new-from-rev", "", "report only findings on lines changed since this git `REVISION` (e.g. origin/main)")
	c.Flags().StringVar(&opts.Baseline, "baseline", "", "leave out the findings recorded in this baseline `FILE`")
	c.Flags().BoolVar(&opts.WriteBaseline, "write-baseline", false, "record this run's findings in the --baseline file and exit 0")
	c.Flags().StringVar(&opts.Langs, "lang", "", "comma-separated `LANGUAGES` to lint: go, python, typescript (default: every language found)")
	c.Flags().StringArrayVar(&opts.AnalyzerFlags, "analyzer-flag", nil, "pass a `FLAG` to the analyzers, e.g. -IDEM001.keypattern=REGEXP (repeatable)")
	addMaxInputFlag(c.Flags(), &opts.MaxInput)
	return c
}

// explainConfig is the --explain topic of the configuration file.
const explainConfig = "config"

func lintRun(opts *LintOptions) error {
	if strings.EqualFold(opts.Explain, explainConfig) {
		_, err := io.WriteString(opts.IO.Out, config.Reference)
		return err
	}
	if opts.Explain != "" {
		rule, ok := suite.Rule(opts.Explain)
		if !ok {
			return UsageErrorf("unknown rule %q (rules: %s; or %s for %s)", opts.Explain, strings.Join(suite.RuleIDs(), ", "), explainConfig, config.FileName)
		}
		return writeRuleDoc(opts.IO.Out, rule, ui.New(opts.IO.Out, opts.IO.ColorEnabled()))
	}
	format, ok := report.Lookup(opts.Format)
	if !ok {
		return UsageErrorf("unknown --format %q (want %s)", opts.Format, strings.Join(report.FormatNames(), ", "))
	}
	if err := driver.CheckAnalyzerFlags(suite.Analyzers(), opts.AnalyzerFlags); err != nil {
		return UsageErrorf("--analyzer-flag: %v", err)
	}
	if opts.WriteBaseline && opts.Baseline == "" {
		return UsageErrorf("--write-baseline needs --baseline FILE")
	}
	if err := checkLocalPatterns(opts.Dir, opts.Patterns); err != nil {
		return err
	}
	langs, explicit, err := parseLangs(opts.Langs)
	if err != nil {
		return err
	}
	cfg, cfgPath, cfgFlags, err := loadLintConfig(opts)
	if err != nil {
		return err
	}
	if opts.baseline, err = readBaseline(opts); err != nil {
		return err
	}
	other, err := lintOtherLanguages(opts, cfg, langs, explicit)
	if err != nil {
		return err
	}
	res := &driver.Result{}
	goRan := false
	if langs["go"] {
		if res, goRan, err = lintGo(opts, cfgFlags, other.found() && !explicit["go"]); err != nil {
			return err
		}
	}
	if other.skipped != "" {
		if !goRan {
			// Nothing was analyzed at all: no verdict to give.
			return UsageErrorf("nothing to lint in this build: %s", other.skipped)
		}
		fmt.Fprintf(opts.IO.ErrOut, "idemcheck: %s\n", other.skipped)
	}
	res.Findings = append(res.Findings, other.findings...)
	res.Errors = append(res.Errors, other.errors...)
	report.Sort(res.Findings)
	for i, e := range res.Errors {
		res.Errors[i].Package = redactArgsIn(opts.Dir, e.Package, opts.Patterns)
		if slices.Contains(opts.Patterns, e.Package) {
			e.Message = plainPackageError(e.Message)
		}
		res.Errors[i].Message = redactArgsIn(opts.Dir, e.Message, opts.Patterns)
	}
	findings, baseline, err := adoptionFilters(opts, cfg, cfgPath, withoutDisabled(res.Findings, cfg))
	if err != nil {
		return err
	}
	if opts.WriteBaseline {
		return writeBaseline(opts, findings, res.Errors)
	}
	result := report.Result{Findings: findings, Errors: res.Errors, Notes: withoutDisabled(res.Notes, cfg), Warnings: res.Warnings, Baseline: baseline}
	env := report.Env{Style: textStyle(ui.New(opts.IO.Out, opts.IO.ColorEnabled())), Rules: suite.Rules(), Version: opts.Version, Width: opts.IO.Width()}
	if err := format.Write(opts.IO.Out, result, env); err != nil {
		return UsageErrorf("cannot write findings: %v", err)
	}
	switch {
	case !result.Complete():
		return &ExitError{Code: ExitUsage}
	case len(result.Findings) > 0:
		return ErrFindings
	}
	return nil
}

// lintGo runs the Go analyzers through go vet. With optional set (other
// languages were found and --lang did not ask for Go), a tree without a
// Go module or Go packages is not an error: it has no Go to lint.
func lintGo(opts *LintOptions, cfgFlags []string, optional bool) (*driver.Result, bool, error) {
	var progress func(driver.Progress)
	var drawn *lintProgress
	if opts.IO.IsStderrTTY() {
		drawn = startLintProgress(opts.IO.ErrOut)
		progress = drawn.update
	}
	in := onSignals(context.Background())
	defer in.stop()
	res, err := driver.Run(in.ctx, driver.Options{
		Dir:           opts.Dir,
		Patterns:      opts.Patterns,
		Tags:          opts.Tags,
		Tests:         opts.Tests,
		AnalyzerFlags: append(append(cfgFlags, testsFlags(opts.Tests)...), opts.AnalyzerFlags...),
		Tool:          opts.Tool,
		Env:           opts.Env,
		Progress:      progress,
	})
	if drawn != nil {
		drawn.finish() // before anything is printed
	}
	if ierr := in.err("stopped go vet and the vet tools it started"); ierr != nil {
		return nil, false, ierr
	}
	if err != nil {
		var noMod *driver.ErrNoModule
		var noPkg *driver.ErrNoPackages
		if optional && (errors.As(err, &noMod) || (errors.As(err, &noPkg) && !noPkg.TestOnly)) {
			return &driver.Result{}, false, nil
		}
		// go vet quotes patterns it could not load; one that names no
		// existing path is shown by position (it may be a pasted secret).
		return nil, false, UsageErrorf("%s", redactArgsIn(opts.Dir, err.Error(), opts.Patterns))
	}
	return res, true, nil
}

// checkLocalPatterns refuses, in one line, a pattern naming a directory
// (./x, ../x/..., /abs) that does not exist: go would report it as a
// package that failed to load. Such a pattern is a path the user typed, not
// a secret, so the message shows it.
func checkLocalPatterns(dir string, patterns []string) error {
	for i, p := range patterns {
		if strings.HasPrefix(p, "-") {
			return UsageErrorf("argument %d starts with a dash: flags go before the package patterns, and no pattern starts with one", i+1)
		}
		d, ok := patternPath(dir, p)
		if !ok {
			if err := checkBarePath(dir, p); err != nil {
				return err
			}
			continue
		}
		st, err := os.Stat(d)
		switch {
		case err != nil:
			return UsageErrorf("no directory %s: lint takes package patterns such as ./... or ./cmd/server", p)
		case !st.IsDir():
			return filePatternError(p)
		}
	}
	return nil
}

func filePatternError(p string) error {
	return UsageErrorf("%s is a file: lint takes package patterns such as ./... or ./cmd/server, not files", p)
}

// checkBarePath refuses a pattern without ./ that names a file or directory
// here (README.md, cmd/..., examples/demo): go reads it as an import path,
// so `lint cmd/...` would analyze the Go toolchain's cmd packages and
// `lint examples/demo` report a package no module provides.
func checkBarePath(dir, p string) error {
	rel := strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
	if rel == "" || filepath.IsAbs(rel) {
		return nil
	}
	st, err := os.Stat(filepath.Join(dir, rel))
	switch {
	case err != nil:
		return nil
	case !st.IsDir():
		return filePatternError(p)
	}
	return UsageErrorf("%s is read as an import path, not as the directory here: write ./%s", p, p)
}

// plainPackageError rewrites the go command's advice for a pattern naming an
// import path no required module provides ("to add it: go get …"), which
// is wrong for a linter: lint analyzes this module's packages and what they
// import. (For a package that imports such a path, go's advice is right
// and is kept.)
func plainPackageError(msg string) string {
	if strings.Contains(msg, "no required module provides package") {
		return "no package of this module or its requirements has this import path: run lint inside the module, on patterns such as ./..."
	}
	return msg
}

// textStyle decorates report's text format with the ui styles.
func textStyle(st *ui.Styles) report.Style {
	return func(p report.Part, text string) string {
		switch p {
		case report.PartFile:
			return st.Title.Render(text)
		case report.PartPosition, report.PartStep:
			return st.Muted.Render(text)
		case report.PartRule, report.PartFail:
			return st.Fail.Render(text)
		case report.PartLocation:
			return st.Code.Render(text)
		case report.PartPass:
			return st.Pass.Render(text)
		case report.PartSummary:
			return st.Bold.Render(text)
		case report.PartWarn:
			return st.Warn.Render(text)
		}
		return text
	}
}

// adoptionFilters applies, in order, the configuration's exclude globs,
// --new-from-rev and --baseline (unless it is being written). With a
// baseline, it also says how many findings the baseline hid.
func adoptionFilters(opts *LintOptions, cfg *config.Config, cfgPath string, fs []report.Finding) ([]report.Finding, *report.BaselineCount, error) {
	dir, err := filepath.Abs(cmp.Or(opts.Dir, "."))
	if err != nil {
		return nil, nil, UsageErrorf("cannot find the working directory: %v", err)
	}
	if cfg != nil && len(cfg.Exclude) > 0 {
		// --config may name the file relative to the working directory;
		// the findings' files are made absolute, so must its directory be.
		base, err := filepath.Abs(filepath.Dir(cfgPath))
		if err != nil {
			return nil, nil, UsageErrorf("cannot find the configuration's directory: %v", err)
		}
		fs = filter.Exclude(fs, dir, base, cfg.Excluded)
	}
	if opts.NewFromRev != "" {
		if fs, err = filter.NewFromRev(context.Background(), fs, dir, opts.NewFromRev); err != nil {
			return nil, nil, UsageErrorf("%v", err)
		}
	}
	if opts.baseline == nil {
		return fs, nil, nil
	}
	before := len(fs)
	fs = opts.baseline.Filter(fs, dir)
	return fs, &report.BaselineCount{Hidden: before - len(fs)}, nil
}

// readBaseline reads --baseline, up front: a file that is missing, too
// large or not a baseline is a usage error before minutes of analysis.
func readBaseline(opts *LintOptions) (*filter.Baseline, error) {
	if opts.Baseline == "" || opts.WriteBaseline {
		return nil, nil
	}
	data, err := readFile(opts.Baseline, opts.MaxInput)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, UsageErrorf("baseline %s does not exist: create it with --baseline %s --write-baseline", opts.Baseline, opts.Baseline)
	}
	if err != nil {
		return nil, UsageErrorf("--baseline: %v", err)
	}
	b, err := filter.ParseBaseline(opts.Baseline, data)
	if err != nil {
		return nil, UsageErrorf("%v", err)
	}
	return b, nil
}

// writeBaseline records findings in --baseline. A run that left packages
// out would record an incomplete baseline, so it writes nothing.
func writeBaseline(opts *LintOptions, fs []report.Finding, errs []report.PackageError) error {
	if len(errs) > 0 {
		_ = report.WriteText(opts.IO.ErrOut, report.Result{Errors: errs}, nil)
		return UsageErrorf("baseline not written: %d packages were not analyzed", len(errs))
	}
	dir, _ := filepath.Abs(cmp.Or(opts.Dir, "."))
	if err := filter.NewBaseline(fs, dir).WriteFile(opts.Baseline); err != nil {
		return UsageErrorf("cannot write the baseline: %v", err)
	}
	noun := "findings"
	if len(fs) == 1 {
		noun = "finding"
	}
	fmt.Fprintf(opts.IO.ErrOut, "idemcheck: wrote %d %s to %s\n", len(fs), noun, opts.Baseline)
	return nil
}
