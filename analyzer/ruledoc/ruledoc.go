// Package ruledoc holds the documentation of idemcheck's lint rules. Each
// rule is written once, as the package comment of its analyzer's doc.go
// (as x/tools' passes do), and everything else is derived from it: the
// analyzer's name and Doc, `idemcheck lint --explain`, the SARIF rule help
// and docs/rules.md.
//
// A doc.go documents its rule in this form (code blocks indented by a tab):
//
//	// # Analyzer IDEM003
//	//
//	// IDEM003: float in an idempotency key
//	//
//	// Why it breaks idempotency (one or more paragraphs).
//	//
//	// # Fix
//	//
//	// What to do instead.
//	//
//	// # Bad
//	//
//	//	func orderKey(o Order) string { … }
//	//
//	// # Good
//	//
//	//	func orderKey(o Order) string { … }
//
// A rule that also holds for Python or TypeScript shows them in sections
// "# Bad (Python)", "# Good (Python)", "# Bad (TypeScript)" and "# Good
// (TypeScript)", in the same form. Other sections (how the analyzer works)
// may follow; they are for maintainers and are not part of the rule's
// documentation.
package ruledoc

import (
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"strings"
)

// Rule documents one lint rule.
type Rule struct {
	ID    string // stable identifier and analyzer name, e.g. "IDEM001"
	Title string // one line, lowercase start, no trailing period
	Why   string // why the pattern breaks idempotency (plain text, may span lines)
	Fix   string // what to do instead
	Bad   string // Go code showing the problem: complete declarations
	Good  string // Go code showing the fix: complete declarations

	// Examples in other languages, in the order Languages gives.
	Examples []Example
}

// Example is a bad and a good example of a rule in a language other than Go.
type Example struct {
	Lang      string // "python" or "typescript"
	Bad, Good string
}

// Languages other than Go a rule may show examples in: the section name
// ("Python") and the Markdown fence ("python").
var Languages = []struct{ Name, Lang, Fence string }{
	{"Python", "python", "python"},
	{"TypeScript", "typescript", "ts"},
}

// DocsURL is where docs/rules.md is published; each rule has an anchor.
const DocsURL = "https://github.com/idemcheck/idemcheck/blob/main/docs/rules.md"

// URL links to the rule's section of docs/rules.md.
func (r Rule) URL() string { return DocsURL + "#" + strings.ToLower(r.ID) }

// Doc is the analyzer's Doc: the title, a blank line, and why.
func (r Rule) Doc() string { return r.Title + "\n\n" + r.Why }

// Summary is the one-line description used in listings and SARIF short
// descriptions: "IDEM001 per-attempt value in an idempotency key".
func (r Rule) Summary() string { return r.ID + " " + r.Title }

// Write prints the rule as human-readable text.
func (r Rule) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\n", r.ID, r.Title)
	for _, s := range r.Sections() {
		fmt.Fprintf(&b, "%s\n%s\n\n", s.Name, indent(s.Body))
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// Section is one part of a rule's documentation.
type Section struct {
	Name string // Why, Fix, Bad or Good, Bad (Python)…
	Body string
	Code bool   // Body is code
	Lang string // the code's language: "go", "python", "typescript"
}

// Sections returns the rule's non-empty sections in reading order.
func (r Rule) Sections() []Section {
	var out []Section
	all := []Section{{"Why", r.Why, false, ""}, {"Fix", r.Fix, false, ""}, {"Bad", r.Bad, true, "go"}, {"Good", r.Good, true, "go"}}
	for _, l := range Languages {
		for _, ex := range r.Examples {
			if ex.Lang == l.Lang {
				all = append(all, Section{"Bad (" + l.Name + ")", ex.Bad, true, l.Lang}, Section{"Good (" + l.Name + ")", ex.Good, true, l.Lang})
			}
		}
	}
	for _, s := range all {
		if s.Body = strings.TrimSpace(s.Body); s.Body != "" {
			out = append(out, s)
		}
	}
	return out
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
	for _, l := range Languages {
		for _, ex := range r.Examples {
			if ex.Lang == l.Lang {
				fmt.Fprintf(&b, "\nBad (%s):\n\n```%s\n%s\n```\n\nGood (%s):\n\n```%s\n%s\n```\n", l.Name, l.Fence, strings.TrimSpace(ex.Bad), l.Name, l.Fence, strings.TrimSpace(ex.Good))
			}
		}
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

// MustParse is Parse for a doc.go embedded in the analyzer's package: a
// malformed one is a programming error.
func MustParse(docGo string) Rule {
	r, err := Parse(docGo)
	if err != nil {
		panic(err)
	}
	return r
}

// Parse reads a rule's documentation from the package comment of a doc.go
// source file, in the form the package comment describes.
func Parse(docGo string) (Rule, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", docGo, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return Rule{}, err
	}
	if f.Doc == nil {
		return Rule{}, fmt.Errorf("doc.go of package %s has no package comment", f.Name.Name)
	}
	sections := map[string]string{}
	var order []string
	name := ""
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			name = strings.TrimSpace(h)
			order = append(order, name)
			continue
		}
		if name != "" {
			sections[name] += line + "\n"
		}
	}
	var r Rule
	for _, h := range order {
		if id, ok := strings.CutPrefix(h, "Analyzer "); ok {
			r.ID = id
		}
	}
	if r.ID == "" {
		return Rule{}, fmt.Errorf("doc.go of package %s: no \"# Analyzer IDEMnnn\" section", f.Name.Name)
	}
	head, why, _ := strings.Cut(strings.TrimSpace(sections["Analyzer "+r.ID]), "\n")
	title, ok := strings.CutPrefix(head, r.ID+": ")
	if !ok {
		return Rule{}, fmt.Errorf("doc.go of %s: the section's first line must be %q", r.ID, r.ID+": title")
	}
	r.Title, r.Why = title, strings.TrimSpace(why)
	r.Fix = strings.TrimSpace(sections["Fix"])
	r.Bad, r.Good = code(sections["Bad"]), code(sections["Good"])
	for _, l := range Languages {
		bad, good := code(sections["Bad ("+l.Name+")"]), code(sections["Good ("+l.Name+")"])
		if (bad == "") != (good == "") {
			return Rule{}, fmt.Errorf("doc.go of %s: a %s example needs both a Bad and a Good section", r.ID, l.Name)
		}
		if bad != "" {
			r.Examples = append(r.Examples, Example{Lang: l.Lang, Bad: bad, Good: good})
		}
	}
	for _, s := range []struct{ name, body string }{{"why", r.Why}, {"Fix", r.Fix}, {"Bad", r.Bad}, {"Good", r.Good}} {
		if s.body == "" {
			return Rule{}, fmt.Errorf("doc.go of %s: the %s section is missing or empty", r.ID, s.name)
		}
	}
	return r, nil
}

// code turns a comment's code block (lines indented by a tab) into code.
func code(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
