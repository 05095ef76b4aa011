package attemptkey_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
)

// render prints everything a run produced: diagnostics with their related
// path, and the facts, in a canonical order.
func render(t *testing.T, pkgs ...string) string {
	var lines []string
	for _, r := range analysistest.Run(t, analysistest.TestData(), attemptkey.Analyzer, pkgs...) {
		fset := r.Action.Package.Fset
		for _, d := range r.Action.Diagnostics {
			line := fmt.Sprintf("%s %s", fset.Position(d.Pos), d.Message)
			for _, rel := range d.Related {
				line += fmt.Sprintf(" | %s %s", fset.Position(rel.Pos), rel.Message)
			}
			lines = append(lines, line)
		}
		for obj, facts := range r.Facts {
			for _, f := range facts {
				lines = append(lines, fmt.Sprintf("fact %v %#v", obj, f))
			}
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestDeterministic: same code, same findings, same facts, every run.
func TestDeterministic(t *testing.T) {
	pkgs := []string{"handlers", "misc", "crosspkg", "closures"}
	first := render(t, pkgs...)
	if first == "" {
		t.Fatal("no output to compare")
	}
	for i := 0; i < 1; i++ {
		if again := render(t, pkgs...); again != first {
			t.Fatalf("run %d differs:\n%s\n---\n%s", i+2, first, again)
		}
	}
}
