// Package suite lists every idemcheck analyzer and its rule documentation,
// in rule order. The lint command, the go vet tool mode and the
// golangci-lint plugin all take their analyzers from here.
package suite

import (
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/appunique"
	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
	"github.com/idemcheck/idemcheck/analyzer/baredigest"
	"github.com/idemcheck/idemcheck/analyzer/directives"
	"github.com/idemcheck/idemcheck/analyzer/floatkey"
	"github.com/idemcheck/idemcheck/analyzer/ruledoc"
	"github.com/idemcheck/idemcheck/analyzer/sdkkey"
	"github.com/idemcheck/idemcheck/analyzer/tenantscope"
	"github.com/idemcheck/idemcheck/analyzer/wholepayload"
)

type entry struct {
	analyzer *analysis.Analyzer
	rule     ruledoc.Rule
}

// entries is the suite, in rule order.
var entries = []entry{
	{attemptkey.Analyzer, attemptkey.Rule},
	{sdkkey.Analyzer, sdkkey.Rule},
	{floatkey.Analyzer, floatkey.Rule},
	{wholepayload.Analyzer, wholepayload.Rule},
	{baredigest.Analyzer, baredigest.Rule},
	{appunique.Analyzer, appunique.Rule},
	{tenantscope.Analyzer, tenantscope.Rule},
}

// directivesAnalyzer reports mistakes in //idemcheck:ignore directives
// (warnings, not findings); it runs after every rule.
var directivesAnalyzer = directives.New(ruleAnalyzers()...)

// Analyzers returns every analyzer of the suite: the rules in rule order,
// then the directives analyzer.
func Analyzers() []*analysis.Analyzer {
	return append(ruleAnalyzers(), directivesAnalyzer)
}

func ruleAnalyzers() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(entries))
	for i, e := range entries {
		out[i] = e.analyzer
	}
	return out
}

// Rules returns the documentation of every rule, sorted by ID.
func Rules() []ruledoc.Rule {
	out := make([]ruledoc.Rule, len(entries))
	for i, e := range entries {
		out[i] = e.rule
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// RuleIDs returns every rule's ID, sorted.
func RuleIDs() []string {
	var ids []string
	for _, r := range Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// Rule returns the documentation of the rule with the given ID
// (case-insensitive).
func Rule(id string) (ruledoc.Rule, bool) {
	for _, e := range entries {
		if strings.EqualFold(e.rule.ID, id) {
			return e.rule, true
		}
	}
	return ruledoc.Rule{}, false
}
