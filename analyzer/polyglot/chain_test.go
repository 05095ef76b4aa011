//go:build cgo

package polyglot_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/polyglot"
)

// TestChain: a key drawn at the end of a chain of helpers spread over
// modules (imports resolved in the project) is reported where it is sent,
// once; each helper is summarized once, so a long chain stays cheap.
func TestChain(t *testing.T) {
	const modules, perModule = 10, 100
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "__init__.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for m := 0; m < modules; m++ {
		var b strings.Builder
		b.WriteString("import uuid\nimport requests\n")
		if m+1 < modules {
			fmt.Fprintf(&b, "from .m%d import f0 as next_f\n", m+1)
		}
		for i := 0; i < perModule; i++ {
			switch {
			case i+1 < perModule:
				fmt.Fprintf(&b, "def f%d(order, n):\n    return f%d(order, n + 1)\n\n", i, i+1)
			case m+1 < modules:
				fmt.Fprintf(&b, "def f%d(order, n):\n    return next_f(order, n)\n\n", i)
			default:
				fmt.Fprintf(&b, "def f%d(order, n):\n    return f\"{order['id']}-{uuid.uuid4()}\"\n\n", i)
			}
		}
		if m == 0 {
			b.WriteString("def send(order):\n    requests.post(\"https://p.example\", headers={\"Idempotency-Key\": f0(order, 0)})\n")
		}
		if err := os.WriteFile(filepath.Join(pkg, fmt.Sprintf("m%d.py", m)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := polyglot.Run(polyglot.Options{Dir: dir, Languages: []string{"python"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].File != filepath.Join("pkg", "m0.py") || !strings.Contains(res.Findings[0].Message, "uuid.uuid4()") {
		t.Fatalf("findings = %+v, want one, in m0.py's send, from uuid.uuid4()", res.Findings)
	}
}
