package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

// The companion rules register the "config" flag themselves; IDEM001 gets
// it here, and follows every configuration that is installed (through the
// flag under go vet, or config.SetActive in the golangci-lint plugin).
func init() {
	if attemptkey.Analyzer.Flags.Lookup(config.FlagName) == nil {
		attemptkey.Analyzer.Flags.Var(&config.Flag{}, config.FlagName, config.FlagUsage)
	}
	config.OnActivate(func(c *config.Config) { attemptkey.Configure(AttemptKeyConfig(c)) })
}

// AttemptKeyConfig translates .idemcheck.yaml into IDEM001's model: extra
// sources, sinks and barriers, and the key-name pattern added to the
// default one.
func AttemptKeyConfig(c *config.Config) attemptkey.Config {
	var out attemptkey.Config
	if c == nil {
		return out
	}
	if c.KeyName != "" {
		if m, err := keyname.Compile(keyname.DefaultKey + "|" + c.KeyName); err == nil {
			out.Keys = m
		}
	}
	out.Sources = attemptKeyPatterns(c.Sources)
	out.Sinks = attemptKeyPatterns(c.Sinks)
	out.Barriers = attemptKeyPatterns(c.Barriers)
	return out
}

func attemptKeyPatterns(ps []config.Pattern) []attemptkey.Pattern {
	var out []attemptkey.Pattern
	for _, p := range ps {
		if re := p.FunctionPattern(); re != nil {
			out = append(out, attemptkey.Pattern{Package: p.Package, Name: re})
		}
		if re := p.FieldPattern(); re != nil {
			out = append(out, attemptkey.Pattern{Package: p.Package, Name: re})
		}
	}
	return out
}

// Enabled returns the analyzers of the rules c does not disable, in rule
// order.
func Enabled(c *config.Config) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, e := range entries {
		if !c.Disabled(e.rule.ID) {
			out = append(out, e.analyzer)
		}
	}
	return out
}
