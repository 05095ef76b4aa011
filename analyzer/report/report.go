// Package report holds lint findings in a driver-independent form and
// writes them as text or as the documented JSON shape. Other formats
// (SARIF, GitHub annotations) build on the same Result. The package has no
// styling of its own: a caller that wants colour passes a Style.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Finding is one diagnostic of one rule.
type Finding struct {
	Rule    string    `json:"rule"`
	File    string    `json:"file"` // relative to the working directory when inside it
	Line    int       `json:"line"`
	Column  int       `json:"column"`
	Message string    `json:"message"`
	Related []Related `json:"related"`
}

// Related is a secondary location: for IDEM001, a step of the path from
// the per-attempt source to the key sink.
type Related struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// Sort orders findings by file, line, column, rule and message, so the
// same code gives the same output on every run.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}

// Dedup drops findings identical in rule, position and message (go vet
// reports a package's findings again for its test variant).
func Dedup(fs []Finding) []Finding {
	seen := map[string]bool{}
	out := fs[:0]
	for _, f := range fs {
		k := fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%s", f.Rule, f.File, f.Line, f.Column, f.Message)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
}

// PackageError is a package that could not be analyzed: it does not load,
// parse or type-check, or an analyzer failed on it. Its findings are
// missing from the Result.
type PackageError struct {
	Package string `json:"package,omitempty"` // import path, when known
	Message string `json:"message"`           // what the go command or analyzer said
}

// Result is one lint run: the findings of the packages that were analyzed
// and the errors of those that were not. Notes are what an analyzer says
// about its own run rather than about the code, e.g. that a bound cut the
// analysis of a package short: they are not findings, but a run with notes
// is not a clean verdict either.
type Result struct {
	Findings []Finding
	Errors   []PackageError
	Notes    []Finding
}

// Complete reports whether every package was analyzed.
func (r Result) Complete() bool { return len(r.Errors) == 0 }

// JSONDocument is the documented `--format json` shape. "errors" is
// present only when some package could not be analyzed, "notes" only when
// an analysis was cut short.
type JSONDocument struct {
	Findings []Finding      `json:"findings"`
	Errors   []PackageError `json:"errors,omitempty"`
	Notes    []Finding      `json:"notes,omitempty"`
}

// WriteJSON writes {"findings":[…]} (and "errors":[…] when some package
// was not analyzed), indented, with empty arrays rather than null.
func WriteJSON(w io.Writer, r Result) error {
	doc := JSONDocument{Findings: make([]Finding, 0, len(r.Findings)), Errors: r.Errors, Notes: r.Notes}
	for _, f := range r.Findings {
		if f.Related == nil {
			f.Related = []Related{}
		}
		doc.Findings = append(doc.Findings, f)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// Part names a piece of the text output a Style may decorate.
type Part int

// The parts of the text output.
const (
	PartFile     Part = iota // a file heading
	PartPosition             // line:column of a finding or step
	PartRule                 // the rule ID
	PartStep                 // the arrow before a path step
	PartLocation             // a path step's location
	PartPass                 // the pass mark
	PartFail                 // the fail mark
	PartSummary              // the closing count
)

// Style decorates text output, e.g. with terminal colours. nil is plain.
type Style func(p Part, text string) string

func (s Style) render(p Part, text string) string {
	if s == nil {
		return text
	}
	return s(p, text)
}

// The marks of the text summary line.
const (
	PassMark = "✓"
	FailMark = "✗"
)

// WriteText writes the packages that were not analyzed, then the findings
// grouped by file (position, rule, message, then the source → sink path),
// and a summary. It never says "no findings" about a run that left
// packages out.
func WriteText(w io.Writer, r Result, st Style) error {
	var b strings.Builder
	if len(r.Errors) > 0 {
		fmt.Fprintf(&b, "%s %s\n", st.render(PartFail, FailMark), st.render(PartSummary, plural(len(r.Errors), "package not analyzed, so its", "packages not analyzed, so their")+" findings are missing:"))
		for _, e := range r.Errors {
			lines := strings.Split(e.Message, "\n")
			if e.Package != "" {
				fmt.Fprintf(&b, "  %s: %s\n", st.render(PartFile, e.Package), lines[0])
			} else {
				fmt.Fprintf(&b, "  %s\n", lines[0])
			}
			for _, l := range lines[1:] {
				fmt.Fprintf(&b, "    %s\n", l)
			}
		}
		b.WriteString("\n")
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s %s %s\n", st.render(PartLocation, fmt.Sprintf("%s:%d:%d", n.File, n.Line, n.Column)), st.render(PartRule, n.Rule), n.Message)
	}
	if len(r.Notes) > 0 {
		b.WriteString("\n")
	}
	fs := r.Findings
	if len(fs) == 0 {
		switch {
		case len(r.Errors) == 0 && len(r.Notes) > 0:
			// No pass mark: part of the analysis did not run to its end.
			fmt.Fprintf(&b, "%s\n", st.render(PartSummary, "no findings, but "+plural(len(r.Notes), "note says", "notes say")+" the analysis was cut short (above)"))
		case len(r.Errors) == 0:
			fmt.Fprintf(&b, "%s %s\n", st.render(PartPass, PassMark), "no findings")
		default:
			fmt.Fprintf(&b, "%s %s\n", st.render(PartFail, FailMark), st.render(PartSummary, "no findings in the packages that were analyzed; the others are listed above"))
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	files := 0
	for i, f := range fs {
		if i == 0 || fs[i-1].File != f.File {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(st.render(PartFile, f.File) + "\n")
			files++
		}
		fmt.Fprintf(&b, "  %s %s %s\n", st.render(PartPosition, fmt.Sprintf("%d:%d", f.Line, f.Column)), st.render(PartRule, f.Rule), f.Message)
		for j, rel := range f.Related {
			arrow := "→"
			if j == 0 {
				arrow = "•"
			}
			loc := fmt.Sprintf("%s:%d:%d", rel.File, rel.Line, rel.Column)
			if rel.File == f.File {
				loc = fmt.Sprintf("%d:%d", rel.Line, rel.Column)
			}
			fmt.Fprintf(&b, "      %s %s %s\n", st.render(PartStep, arrow), st.render(PartLocation, loc), rel.Message)
		}
	}
	summary := fmt.Sprintf("%s in %s", plural(len(fs), "finding", "findings"), plural(files, "file", "files"))
	if len(r.Errors) > 0 {
		summary += "; " + plural(len(r.Errors), "package", "packages") + " not analyzed"
	}
	if len(r.Notes) > 0 {
		summary += "; " + plural(len(r.Notes), "analysis", "analyses") + " cut short"
	}
	fmt.Fprintf(&b, "\n%s %s\n", st.render(PartFail, FailMark), st.render(PartSummary, summary))
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
