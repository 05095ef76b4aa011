// Package ruledoc holds the documentation of idemcheck's lint rules as data,
// kept next to each analyzer (as staticcheck does) and printed by
// `idemcheck lint --explain`, listed in docs/rules.md and carried by SARIF.
package ruledoc

import (
	"fmt"
	"io"
	"strings"
)

// Rule documents one lint rule.
type Rule struct {
	ID       string // stable identifier, e.g. "IDEM001"
	Analyzer string // name of the go/analysis Analyzer that reports it
	Title    string // one line, lowercase start, no trailing period
	Why      string // why the pattern breaks idempotency (plain text, may span lines)
	Fix      string // what to do instead
	Bad      string // Go code showing the problem
	Good     string // Go code showing the fix
	HelpURI  string // optional link to further reading
}

// Summary is the one-line description used in listings and SARIF short
// descriptions: "IDEM001 per-attempt value in an idempotency key".
func (r Rule) Summary() string { return r.ID + " " + r.Title }

// Write prints the rule as human-readable text.
func (r Rule) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\n", r.ID, r.Title)
	section := func(name, body string) {
		if strings.TrimSpace(body) == "" {
			return
		}
		fmt.Fprintf(&b, "%s\n%s\n\n", name, indent(strings.TrimSpace(body)))
	}
	section("Why", r.Why)
	section("Fix", r.Fix)
	section("Bad", r.Bad)
	section("Good", r.Good)
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// Markdown renders the rule as a section of docs/rules.md.
func (r Rule) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s — %s\n\n%s\n\n", r.ID, r.Title, strings.TrimSpace(r.Why))
	if r.Fix != "" {
		fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(r.Fix))
	}
	if r.Bad != "" {
		fmt.Fprintf(&b, "Bad:\n\n```go\n%s\n```\n\n", strings.TrimSpace(r.Bad))
	}
	if r.Good != "" {
		fmt.Fprintf(&b, "Good:\n\n```go\n%s\n```\n", strings.TrimSpace(r.Good))
	}
	return b.String()
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n")
}
