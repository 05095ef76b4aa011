package polyglot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

func TestReadPyDeps(t *testing.T) {
	dir := t.TempDir()
	pyproject := `[project]
name = "billing"
dependencies = [
    "Stripe>=7",   # the SDK
    "celery[redis]>=5.3",
]

[tool.poetry.dependencies]
python = "^3.11"
yookassa = "^3.0"
`
	if err := os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte(pyproject), 0o644); err != nil {
		t.Fatal(err)
	}
	deps := readPyDeps(dir)
	for _, name := range []string{"stripe", "celery", "yookassa"} {
		if !deps[name] {
			t.Errorf("%s not read from pyproject.toml (got %v)", name, deps)
		}
	}
	if deps["billing"] {
		t.Errorf("the project's own name read as a dependency")
	}
	req := "-r base.txt\n--index-url https://example.invalid\npython-dotenv==1.0  # env\nstripe @ https://example.invalid/stripe.whl\n"
	if err := os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte(req), 0o644); err != nil {
		t.Fatal(err)
	}
	deps = readPyDeps(dir)
	if !deps["python_dotenv"] || !deps["stripe"] || len(deps) != 2 {
		t.Errorf("requirements.txt read as %v, want python_dotenv and stripe", deps)
	}
	if readPyDeps(t.TempDir()) != nil {
		t.Errorf("a directory with neither file declares something")
	}
}

// TestFirstTargetLongestPrefix: of two patterns a module matches, the one
// with the longer prefix decides, whatever the map's order.
func TestFirstTargetLongestPrefix(t *testing.T) {
	general := &ir.File{Path: filepath.Join("src", "lib", "pay", "stripe.ts")}
	specific := &ir.File{Path: filepath.Join("src", "payments", "stripe.ts")}
	r := newResolver([]*ir.File{general, specific})
	patterns := map[string][]string{"#lib/*": {"./src/lib/*"}, "#lib/pay/*": {"./src/payments/*"}}
	for range 20 {
		if f := r.firstTarget(".", patterns, "#lib/pay/stripe.js"); f != specific {
			t.Fatalf("#lib/pay/stripe.js resolved to %v, want %s", f, specific.Path)
		}
	}
}
