package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/idemcheck/idemcheck/analyzer/suite"
	"github.com/idemcheck/idemcheck/internal/docgen"
	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// TestGeneratedDocsUpToDate fails when docs/rules.md or docs/flags.md no
// longer says what the rules' doc.go files and the commands' flags say.
func TestGeneratedDocsUpToDate(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	files, err := docgen.Files(NewRootCmd("", ios), suite.Rules())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		have, err := os.ReadFile(filepath.Join("..", "docs", f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, f.Data) {
			t.Errorf("docs/%s is stale: run `go generate` in the repository root and commit the result", f.Name)
		}
	}
}

// docs/restart-test.md's flags table lists every flag of restart-test and
// no other, and --provider-fault reads there as in --help.
func TestRestartTestDocFlagsTable(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdRestartTest(ios, func(*RestartTestOptions) error { return nil })
	doc, err := os.ReadFile(filepath.Join("..", "docs", "restart-test.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "### Flags and exit codes")
	if !ok {
		t.Fatal("docs/restart-test.md has no flags table")
	}
	table, _, _ = strings.Cut(strings.TrimLeft(table, "\n"), "\n\n")
	listed := map[string]string{} // flag → the row's meaning
	for _, row := range strings.Split(table, "\n") {
		cells := strings.Split(row, " | ")
		if len(cells) < 2 || !strings.HasPrefix(row, "| `--") {
			continue
		}
		for _, m := range regexp.MustCompile("`--([a-z-]+)").FindAllStringSubmatch(cells[0], -1) {
			listed[m[1]] = strings.TrimSuffix(cells[1], " |")
		}
	}
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" {
			return
		}
		if _, ok := listed[f.Name]; !ok {
			t.Errorf("--%s is not in docs/restart-test.md's flags table", f.Name)
		}
		delete(listed, f.Name)
	})
	for name := range listed {
		t.Errorf("docs/restart-test.md's flags table lists --%s, which restart-test does not have", name)
	}
	fault := cmd.Flags().Lookup("provider-fault")
	_, help, _ := strings.Cut(strings.ReplaceAll(fault.Usage, "`", ""), "FAULT: ")
	_, row, _ := strings.Cut(string(doc), "| `--provider-fault FAULT` | fake provider fault: ")
	if row, _, _ = strings.Cut(row, " |"); help == "" || row != help {
		t.Errorf("--provider-fault: --help says %q, the doc %q", help, row)
	}
}
