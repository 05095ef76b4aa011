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

	"github.com/idemcheck/idemcheck/internal/ui"
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
//
// Warnings are mistakes in //idemcheck:ignore directives (malformed, or
// matching no finding): worth fixing, but they never change the verdict or
// the exit status. Baseline, when a baseline was applied, counts the
// findings it left out.
type Result struct {
	Findings []Finding
	Errors   []PackageError
	Notes    []Finding
	Warnings []Finding
	Baseline *BaselineCount
}

// BaselineCount is what a --baseline run left out.
type BaselineCount struct {
	Hidden int `json:"hidden"` // findings the baseline recorded, not reported
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
	Warnings []Finding      `json:"warnings,omitempty"`
	Baseline *BaselineCount `json:"baseline,omitempty"`
}

// WriteJSON writes {"findings":[…]} (and "errors":[…] when some package
// was not analyzed), indented, with empty arrays rather than null.
func WriteJSON(w io.Writer, r Result) error {
	doc := JSONDocument{Findings: withRelated(r.Findings), Errors: r.Errors, Notes: r.Notes, Baseline: r.Baseline}
	if len(r.Warnings) > 0 {
		doc.Warnings = withRelated(r.Warnings)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// withRelated copies fs with an empty list, not null, for no related
// locations.
func withRelated(fs []Finding) []Finding {
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		if f.Related == nil {
			f.Related = []Related{}
		}
		out = append(out, f)
	}
	return out
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
	PartWarn                 // the "warning:" of a directive mistake
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
func WriteText(w io.Writer, r Result, st Style) error { return WriteTextWidth(w, r, st, 0) }

// WriteTextWidth is WriteText with lines wrapped to width columns at word
// boundaries, a message continuing under its own start (0: no wrapping).
func WriteTextWidth(w io.Writer, r Result, st Style, width int) error {
	tw := &textWriter{width: width}
	b := &tw.b
	if len(r.Errors) > 0 {
		fmt.Fprintf(b, "%s %s\n", st.render(PartFail, FailMark), st.render(PartSummary, plural(len(r.Errors), "package not analyzed, so its", "packages not analyzed, so their")+" findings are missing:"))
		for _, e := range r.Errors {
			lines := strings.Split(e.Message, "\n")
			if e.Package != "" {
				tw.line(4, "  %s: %s", st.render(PartFile, e.Package), lines[0])
			} else {
				tw.line(4, "  %s", lines[0])
			}
			for _, l := range lines[1:] {
				tw.line(6, "    %s", l)
			}
		}
		b.WriteString("\n")
	}
	for _, n := range r.Notes {
		tw.line(6, "note: %s %s %s", st.render(PartLocation, fmt.Sprintf("%s:%d:%d", n.File, n.Line, n.Column)), st.render(PartRule, n.Rule), n.Message)
	}
	if len(r.Notes) > 0 {
		b.WriteString("\n")
	}
	for _, n := range r.Warnings {
		tw.line(9, "%s %s %s", st.render(PartWarn, "warning:"), st.render(PartLocation, fmt.Sprintf("%s:%d:%d", n.File, n.Line, n.Column)), n.Message)
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\n")
	}
	fs := r.Findings
	if len(fs) == 0 {
		switch {
		case len(r.Errors) == 0 && len(r.Notes) > 0:
			// No pass mark: part of the analysis did not run to its end.
			fmt.Fprintf(b, "%s\n", st.render(PartSummary, "no findings, but "+plural(len(r.Notes), "note says", "notes say")+" the analysis was cut short (above)"+r.extras()))
		case len(r.Errors) == 0:
			fmt.Fprintf(b, "%s %s\n", st.render(PartPass, PassMark), r.noFindings()+r.extras())
		default:
			fmt.Fprintf(b, "%s %s\n", st.render(PartFail, FailMark), st.render(PartSummary, r.noFindings()+" in the packages that were analyzed; the others are listed above"+r.extras()))
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
		pos := fmt.Sprintf("%d:%d", f.Line, f.Column)
		tw.line(2+len(pos)+1+len(f.Rule)+1, "  %s %s %s", st.render(PartPosition, pos), st.render(PartRule, f.Rule), f.Message)
		for j, rel := range f.Related {
			arrow := "→"
			if j == 0 {
				arrow = "•"
			}
			loc := fmt.Sprintf("%s:%d:%d", rel.File, rel.Line, rel.Column)
			if rel.File == f.File {
				loc = fmt.Sprintf("%d:%d", rel.Line, rel.Column)
			}
			tw.line(6+2+len(loc)+1, "      %s %s %s", st.render(PartStep, arrow), st.render(PartLocation, loc), rel.Message)
		}
	}
	noun := "finding"
	if r.Baseline != nil {
		noun = "new finding"
	}
	summary := fmt.Sprintf("%s in %s", plural(len(fs), noun, noun+"s"), plural(files, "file", "files"))
	if len(r.Errors) > 0 {
		summary += "; " + plural(len(r.Errors), "package", "packages") + " not analyzed"
	}
	if len(r.Notes) > 0 {
		summary += "; " + plural(len(r.Notes), "analysis", "analyses") + " cut short"
	}
	fmt.Fprintf(b, "\n%s %s\n", st.render(PartFail, FailMark), st.render(PartSummary, summary+r.extras()))
	_, err := io.WriteString(w, b.String())
	return err
}

// noFindings is the summary of a run without findings.
func (r Result) noFindings() string {
	if r.Baseline != nil {
		return "no new findings"
	}
	return "no findings"
}

// extras closes the summary with what the baseline hid and the count of
// warnings: " (3 hidden by the baseline; 1 warning)".
func (r Result) extras() string {
	var parts []string
	if r.Baseline != nil {
		parts = append(parts, fmt.Sprintf("%d hidden by the baseline", r.Baseline.Hidden))
	}
	if len(r.Warnings) > 0 {
		parts = append(parts, plural(len(r.Warnings), "warning", "warnings")+" above")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// textWriter collects text output, wrapping each line to width.
type textWriter struct {
	b     strings.Builder
	width int
}

// line writes one formatted line; its continuation lines are indented by
// indent columns.
func (t *textWriter) line(indent int, format string, args ...any) {
	t.b.WriteString(ui.WrapLine(fmt.Sprintf(format, args...), t.width, indent) + "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
