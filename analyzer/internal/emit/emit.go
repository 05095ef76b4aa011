// Package emit reports diagnostics for idemcheck's rules, honouring the
// configuration's disabled rules.
package emit

import (
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/config"
)

// Enabled reports whether rule id should run.
func Enabled(id string) bool { return !config.Active().Disabled(id) }

// Report reports a finding of rule id at pos, once per position.
func Report(pass *analysis.Pass, seen map[token.Pos]bool, id string, pos token.Pos, msg string, related ...analysis.RelatedInformation) {
	if seen[pos] {
		return
	}
	seen[pos] = true
	pass.Report(analysis.Diagnostic{Pos: pos, Category: id, Message: msg, Related: related})
}
