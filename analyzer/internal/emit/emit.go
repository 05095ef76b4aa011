// Package emit reports the diagnostics of idemcheck's companion rules
// (IDEM002-IDEM007): it honours //idemcheck:ignore directives and the
// configuration's disabled rules, and reports each position once.
package emit

import (
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/directive"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// Enabled reports whether rule id should run: the configuration in the
// key model does not disable it. The analyzer must require keymodel.
func Enabled(pass *analysis.Pass, id string) bool { return !keymodel.Of(pass).Disabled(id) }

// Reporter reports one rule's findings in one package.
type Reporter struct {
	rep     *directive.Reporter
	seen    map[token.Pos]bool
	foreign map[string]token.Pos // PosOf's files
}

// New parses the package's directives for rule id.
func New(pass *analysis.Pass, id string) *Reporter {
	return &Reporter{rep: directive.NewReporter(pass, id), seen: map[token.Pos]bool{}}
}

// Report reports a finding at pos unless a directive suppresses it or the
// position was already reported.
func (r *Reporter) Report(pos token.Pos, msg string, related ...analysis.RelatedInformation) {
	if r.seen[pos] {
		return
	}
	r.seen[pos] = true
	r.rep.Report(analysis.Diagnostic{Pos: pos, Message: msg, Related: related})
}
