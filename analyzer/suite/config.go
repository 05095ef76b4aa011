package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/config"
)

// Enabled returns the analyzers of the rules c does not disable, in rule
// order, then the directives analyzer (which judges only the directives of
// rules that ran).
func Enabled(c *config.Config) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, e := range entries {
		if !c.Disabled(e.rule.ID) {
			out = append(out, e.analyzer)
		}
	}
	return append(out, directivesAnalyzer)
}
