package cmd

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/report"
	"github.com/idemcheck/idemcheck/analyzer/ruledoc"
	"github.com/idemcheck/idemcheck/analyzer/suite"
	"github.com/idemcheck/idemcheck/internal/suggest"
	"github.com/idemcheck/idemcheck/internal/ui"
)

// loadLintConfig reads --config, or .idemcheck.yaml found from the working
// directory upwards, and turns it into analyzer flags for the vet tool.
// The flags carry the file's content, not its path: go vet keys its cache
// on the flags, so editing the file re-analyzes every package.
func loadLintConfig(opts *LintOptions) (*config.Config, string, []string, error) {
	path := opts.ConfigPath
	if path == "" {
		dir := opts.Dir
		if dir == "" {
			var err error
			if dir, err = os.Getwd(); err != nil {
				return nil, "", nil, UsageErrorf("cannot find the working directory: %v", err)
			}
		}
		found, err := config.Find(dir)
		if err != nil {
			return nil, "", nil, UsageErrorf("looking for %s: %v", config.FileName, err)
		}
		if found == "" {
			return nil, "", nil, nil
		}
		path = found
	}
	data, err := readFile(path, opts.MaxInput)
	if err != nil {
		return nil, "", nil, UsageErrorf("config: %v", err)
	}
	cfg, data, err := config.LoadData(path, data)
	if err != nil {
		return nil, "", nil, UsageErrorf("%v", err)
	}
	if err := checkDisabledRules(cfg); err != nil {
		return nil, "", nil, UsageErrorf("%s: %v", path, err)
	}
	value := config.Encode(data)
	var flags []string
	for _, a := range suite.Analyzers() {
		if a.Flags.Lookup(config.FlagName) != nil {
			flags = append(flags, fmt.Sprintf("-%s.%s=%s", a.Name, config.FlagName, value))
		}
	}
	return cfg, path, flags, nil
}

// checkDisabledRules refuses a rule ID in disable: that no rule has: a
// typo would otherwise leave the rule on without a word. (The config
// package checks the ID's shape; it cannot import the suite, which
// imports it.)
func checkDisabledRules(cfg *config.Config) error {
	ids := suite.RuleIDs()
	for _, id := range cfg.Disable {
		if slices.Contains(ids, id) {
			continue
		}
		hint := ""
		if s := suggest.Unique(id, ids); s != "" {
			hint = " (did you mean " + s + "?)"
		}
		return fmt.Errorf("invalid config: disable: no rule %s%s; the rules are %s", id, hint, strings.Join(ids, ", "))
	}
	return nil
}

// withoutDisabled drops findings of rules the configuration turns off
// (IDEM001 runs regardless, so its findings are dropped here).
func withoutDisabled(fs []report.Finding, cfg *config.Config) []report.Finding {
	if cfg == nil || len(cfg.Disable) == 0 {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		if !cfg.Disabled(f.Rule) {
			out = append(out, f)
		}
	}
	return out
}

// writeRuleDoc prints a rule's documentation, styled on a terminal and as
// ruledoc.Rule.Write's plain text otherwise.
func writeRuleDoc(w io.Writer, r ruledoc.Rule, st *ui.Styles) error {
	var b strings.Builder
	code := st.Code.TabWidth(lipgloss.NoTabConversion) // keep Go's tabs
	fmt.Fprintf(&b, "%s\n\n", st.Title.Render(r.ID+": "+r.Title))
	for _, sec := range r.Sections() {
		b.WriteString(st.Header.Render(sec.Name) + "\n")
		for _, line := range strings.Split(sec.Body, "\n") {
			if line == "" {
				b.WriteString("\n")
				continue
			}
			if sec.Code {
				line = code.Render(line)
			}
			b.WriteString("    " + line + "\n")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// testsFlags makes the analyzers report test support outside _test.go
// files (helpers taking a testing.TB) too, for --tests.
func testsFlags(tests bool) []string {
	if !tests {
		return nil
	}
	var flags []string
	for _, a := range suite.Analyzers() {
		if a.Flags.Lookup(keymodel.TestsFlagName) != nil {
			flags = append(flags, fmt.Sprintf("-%s.%s", a.Name, keymodel.TestsFlagName))
		}
	}
	return flags
}
