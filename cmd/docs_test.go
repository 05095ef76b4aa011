package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

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
