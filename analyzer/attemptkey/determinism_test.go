package attemptkey_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemcheck/idemcheck/analyzer/attemptkey"
	"github.com/idemcheck/idemcheck/internal/testenv"
)

// render analyzes the packages afresh and prints everything the run
// produced: diagnostics with their related path, and the facts, in a
// canonical order.
func render(t *testing.T, loaded []*packages.Package) string {
	g, err := checker.Analyze([]*analysis.Analyzer{attemptkey.Analyzer}, loaded, nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for act := range g.All() {
		if act.Err != nil {
			t.Fatal(act.Err)
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			line := fmt.Sprintf("%s %s %s", act.Analyzer.Name, fset.Position(d.Pos), d.Message)
			for _, rel := range d.Related {
				line += fmt.Sprintf(" | %s %s", fset.Position(rel.Pos), rel.Message)
			}
			lines = append(lines, line)
		}
		for _, f := range act.AllObjectFacts() {
			lines = append(lines, fmt.Sprintf("fact %s %v %#v", act.Package.PkgPath, f.Object, f.Fact))
		}
		for _, f := range act.AllPackageFacts() {
			lines = append(lines, fmt.Sprintf("pkgfact %s %#v", f.Package.Path(), f.Fact))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// testDeterministic: same code, same findings, same facts, every run. It
// compares at least three runs (IDEMCHECK_REPEAT, default 3; 20 in CI):
// map order differs between runs, so a single comparison proves little.
func testDeterministic(t *testing.T, loaded []*packages.Package, first string) {
	if !strings.Contains(first, "IDEM001") && !strings.Contains(first, "idempotency key built from") {
		t.Fatalf("no finding to compare:\n%s", first)
	}
	for i := 1; i < max(testenv.Repeat(t), 3); i++ {
		if again := render(t, loaded); again != first {
			t.Fatalf("run %d differs:\n%s\n---\n%s", i+1, first, again)
		}
	}
}
