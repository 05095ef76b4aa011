// Package snippettest checks a rule's Bad and Good examples, as its doc.go
// shows them: both compile against the package's test stubs
// (testdata/src), the analyzer reports Bad, and it stays silent on Good.
package snippettest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemcheck/idemcheck/analyzer/ruledoc"
)

// imports maps the package names the examples use to their import paths.
// An example may use any of them without writing the import.
var imports = map[string]string{
	"context":       "context",
	"errors":        "errors",
	"fmt":           "fmt",
	"json":          "encoding/json",
	"hex":           "encoding/hex",
	"hmac":          "crypto/hmac",
	"sha1":          "crypto/sha1",
	"sha256":        "crypto/sha256",
	"strconv":       "strconv",
	"time":          "time",
	"derive":        "github.com/idemcheck/idemcheck/derive",
	"stripe":        "github.com/stripe/stripe-go/v82",
	"paymentintent": "github.com/stripe/stripe-go/v82/paymentintent",
	"uuid":          "github.com/google/uuid",
	"pgx":           "github.com/jackc/pgx/v5",
	"pgxpool":       "github.com/jackc/pgx/v5/pgxpool",
}

// context is what every example may refer to besides imports.
const context = `
// Order is the examples' message.
type Order struct {
	TenantID, ID, Phone string
	Cents, TotalCents   int64
	Total               float64
	Intent              []byte // the intent as JSON
}
`

var qualified = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.`)

// source is a Go file holding code, with the imports it uses.
func source(pkg, code string) string {
	var paths []string
	seen := map[string]bool{}
	for _, m := range qualified.FindAllStringSubmatch(code, -1) {
		if p, ok := imports[m[1]]; ok && !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	for _, p := range paths {
		fmt.Fprintf(&b, "import %q\n", p)
	}
	b.WriteString(context + "\n" + code + "\n")
	return b.String()
}

// Check runs a on r's Bad and Good examples, with the stubs of the calling
// package's testdata/src.
func Check(t *testing.T, a *analysis.Analyzer, r ruledoc.Rule) {
	t.Helper()
	Run(t, a, r)
}

// Run runs a, in one analysistest load, on the given packages of the
// calling package's testdata/src, checked against their "// want"
// comments as analysistest.Run does, and on r's Bad and Good examples:
// both must compile, Bad must be reported and Good must not. One load,
// because loading type-checks the standard library from source, which
// costs far more than analyzing.
func Run(t *testing.T, a *analysis.Analyzer, r ruledoc.Rule, patterns ...string) []*analysistest.Result {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "src"), os.DirFS(filepath.Join("testdata", "src"))); err != nil {
		t.Fatal(err)
	}
	examples := []struct {
		name, code string
		reported   bool
	}{{"bad", r.Bad, true}, {"good", r.Good, false}}
	for _, ex := range examples {
		pkgDir := filepath.Join(dir, "src", "docexample", ex.name)
		if err := os.MkdirAll(pkgDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkgDir, "example.go"), []byte(source(ex.name, ex.code)), 0o644); err != nil {
			t.Fatal(err)
		}
		patterns = append(patterns, "docexample/"+ex.name)
	}
	results := analysistest.Run(examplesUnlabelled{t, r.ID}, dir, a, patterns...)
	for _, ex := range examples {
		var diags []string
		for _, res := range results {
			if res.Pass.Pkg.Path() == "docexample/"+ex.name {
				for _, d := range res.Diagnostics {
					diags = append(diags, d.Message)
				}
			}
		}
		switch {
		case ex.reported && len(diags) == 0:
			t.Errorf("%s's Bad example is not reported by its analyzer:\n%s", r.ID, ex.code)
		case !ex.reported && len(diags) > 0:
			t.Errorf("%s's Good example is reported by its analyzer (%s):\n%s", r.ID, diags[0], ex.code)
		}
	}
	return results
}

// examplesUnlabelled passes analysistest's complaints through, except the
// "unexpected diagnostic" and "unexpected fact" ones about the examples:
// they carry no "// want" comments, and what is reported there is checked
// by Run itself.
type examplesUnlabelled struct {
	t    *testing.T
	rule string
}

func (e examplesUnlabelled) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if strings.HasPrefix(msg, "docexample/") && (strings.Contains(msg, "unexpected diagnostic") || strings.Contains(msg, "unexpected fact")) {
		return
	}
	e.t.Helper()
	if strings.Contains(msg, "docexample/") {
		msg = e.rule + "'s examples: " + msg
	}
	e.t.Error(msg)
}
