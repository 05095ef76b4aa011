// Package report holds lint findings in a driver-independent form and
// writes them as styled text or as the documented JSON shape. Other
// formats (SARIF, GitHub annotations) build on the same Finding.
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

// JSONDocument is the documented `--format json` shape.
type JSONDocument struct {
	Findings []Finding `json:"findings"`
}

// WriteJSON writes {"findings":[…]}, indented, with empty arrays rather
// than null.
func WriteJSON(w io.Writer, fs []Finding) error {
	doc := JSONDocument{Findings: make([]Finding, 0, len(fs))}
	for _, f := range fs {
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

// WriteText writes findings grouped by file: each finding's position,
// rule and message, then its source → sink path, and a summary count.
func WriteText(w io.Writer, fs []Finding, st *ui.Styles) error {
	var b strings.Builder
	if len(fs) == 0 {
		fmt.Fprintf(&b, "%s %s\n", st.Pass.Render(st.PassMark), "no findings")
		_, err := io.WriteString(w, b.String())
		return err
	}
	files := 0
	for i, f := range fs {
		if i == 0 || fs[i-1].File != f.File {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(st.Title.Render(f.File) + "\n")
			files++
		}
		fmt.Fprintf(&b, "  %s %s %s\n", st.Muted.Render(fmt.Sprintf("%d:%d", f.Line, f.Column)), st.Fail.Render(f.Rule), f.Message)
		for j, r := range f.Related {
			arrow := "→"
			if j == 0 {
				arrow = "•"
			}
			loc := fmt.Sprintf("%s:%d:%d", r.File, r.Line, r.Column)
			if r.File == f.File {
				loc = fmt.Sprintf("%d:%d", r.Line, r.Column)
			}
			fmt.Fprintf(&b, "      %s %s %s\n", st.Muted.Render(arrow), st.Code.Render(loc), r.Message)
		}
	}
	noun := "findings"
	if len(fs) == 1 {
		noun = "finding"
	}
	fileNoun := "files"
	if files == 1 {
		fileNoun = "file"
	}
	fmt.Fprintf(&b, "\n%s %s\n", st.Fail.Render(st.FailMark), st.Bold.Render(fmt.Sprintf("%d %s in %d %s", len(fs), noun, files, fileNoun)))
	_, err := io.WriteString(w, b.String())
	return err
}
