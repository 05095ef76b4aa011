package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/driver"
	"github.com/idemcheck/idemcheck/analyzer/report"
	"github.com/idemcheck/idemcheck/analyzer/suite"
	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/internal/ui"
)

// LintOptions are the parsed flags of `idemcheck lint`.
type LintOptions struct {
	IO *iostreams.IOStreams

	Patterns      []string // package patterns, default ./...
	Format        string   // a registered report format: text, json, …
	Tests         bool     // also report findings in _test.go files
	Tags          string   // build tags
	Explain       string   // print the documentation of a rule and exit
	ConfigPath    string   // --config; "" looks for .idemcheck.yaml upwards from Dir
	AnalyzerFlags []string // extra flags for the vet tool (-IDEM001.keypattern=…)
	Dir           string   // working directory; "" is the current one
	Tool          string   // vet tool executable; "" is idemcheck itself
	Version       string
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

lint drives ` + "`go vet -vettool=idemcheck`" + `, so unchanged packages come from the
build cache. Exit status: 0 no findings, 1 findings, 2 packages that fail to
load or type-check, or bad flags.`,
		Example: `  idemcheck lint ./...
  idemcheck lint --format json ./handlers/...
  idemcheck lint --explain IDEM001`,
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
	c.Flags().StringVar(&opts.Format, "format", "text", "output format: "+strings.Join(report.FormatNames(), ", "))
	c.Flags().BoolVar(&opts.Tests, "tests", false, "also report findings in _test.go files")
	c.Flags().StringVar(&opts.Tags, "tags", "", "comma-separated build tags")
	c.Flags().StringVar(&opts.Explain, "explain", "", "print the documentation of a rule (e.g. IDEM001) and exit")
	c.Flags().StringVar(&opts.ConfigPath, "config", "", "configuration file (default: "+config.FileName+" in the working directory or a parent)")
	c.Flags().StringArrayVar(&opts.AnalyzerFlags, "analyzer-flag", nil, "pass a flag to the analyzers, e.g. -IDEM001.keypattern=REGEXP (repeatable)")
	return c
}

func lintRun(opts *LintOptions) error {
	if opts.Explain != "" {
		rule, ok := suite.Rule(opts.Explain)
		if !ok {
			ids := make([]string, 0)
			for _, r := range suite.Rules() {
				ids = append(ids, r.ID)
			}
			return UsageErrorf("unknown rule %q (rules: %s)", opts.Explain, strings.Join(ids, ", "))
		}
		return writeRuleDoc(opts.IO.Out, rule, ui.New(opts.IO.Out, opts.IO.ColorEnabled()))
	}
	format, ok := report.Lookup(opts.Format)
	if !ok {
		return UsageErrorf("unknown --format %q (want %s)", opts.Format, strings.Join(report.FormatNames(), ", "))
	}
	for _, f := range opts.AnalyzerFlags {
		if !strings.HasPrefix(f, "-") {
			return UsageErrorf("--analyzer-flag %q must start with -", f)
		}
	}
	cfg, cfgFlags, err := loadLintConfig(opts)
	if err != nil {
		return err
	}
	if opts.IO.IsStderrTTY() {
		fmt.Fprintln(opts.IO.ErrOut, "idemcheck: analyzing packages with go vet…")
	}
	findings, err := driver.Run(context.Background(), driver.Options{
		Dir:           opts.Dir,
		Patterns:      opts.Patterns,
		Tags:          opts.Tags,
		Tests:         opts.Tests,
		AnalyzerFlags: append(cfgFlags, opts.AnalyzerFlags...),
		Tool:          opts.Tool,
	})
	if err != nil {
		var le *driver.LoadError
		if errors.As(err, &le) {
			fmt.Fprint(opts.IO.ErrOut, strings.TrimRight(le.Output, "\n")+"\n")
			return &ExitError{Code: ExitUsage, Err: err}
		}
		return UsageErrorf("%v", err)
	}
	findings = withoutDisabled(findings, cfg)
	env := report.Env{Styles: ui.New(opts.IO.Out, opts.IO.ColorEnabled()), Rules: suite.Rules(), Version: opts.Version}
	if err := format.Write(opts.IO.Out, findings, env); err != nil {
		return UsageErrorf("cannot write findings: %v", err)
	}
	if len(findings) > 0 {
		return ErrFindings
	}
	return nil
}
