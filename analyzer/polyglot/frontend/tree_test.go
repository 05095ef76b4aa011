//go:build cgo

package frontend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// The oracle for the flat tree is go-tree-sitter's own Node API over the
// same source: every node must have the same type, span, position, flags
// and children, and every field of the grammar must name the same child.
func TestFlatTreeMatchesGoTreeSitter(t *testing.T) {
	languages := map[string]*sitter.Language{
		".py": python.GetLanguage(), ".ts": typescript.GetLanguage(), ".tsx": tsx.GetLanguage(),
		".js": javascript.GetLanguage(), ".mjs": javascript.GetLanguage(), ".cjs": javascript.GetLanguage(),
	}
	var files []string
	for _, root := range []string{"../testdata", "../../../testdata/restart", "../../../examples"} {
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if err == nil && !d.IsDir() && languages[filepath.Ext(path)] != nil {
				files = append(files, path)
			}
			return nil
		})
	}
	// Sources that exercise error recovery and missing nodes.
	broken := map[string]string{
		"broken.py":  "def f(:\n  x = (1,\nclass\n",
		"broken.ts":  "function f( { const x = `a${b`; if (",
		"broken.tsx": "const a = <div>{x</div>;\nexport default () => <A b=\"",
	}
	if len(files) < 50 {
		t.Fatalf("found only %d source files to compare; the corpus moved?", len(files))
	}
	nodes := 0
	check := func(name string, src []byte) {
		lang := languages[filepath.Ext(name)]
		p := sitter.NewParser()
		defer p.Close()
		p.SetLanguage(lang)
		want, err := p.ParseCtx(context.Background(), nil, src)
		if err != nil {
			t.Fatalf("%s: go-tree-sitter: %v", name, err)
		}
		defer want.Close()
		got, err := parseTree(grammarOf(name), src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		nodes += compareNodes(t, name, src, got.g, want.RootNode(), got.root())
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, src)
	}
	for name, src := range broken {
		check(name, []byte(src))
	}
	t.Logf("%d files, %d nodes compared", len(files)+len(broken), nodes)
}

func compareNodes(t *testing.T, file string, src []byte, g *grammar, want *sitter.Node, got *node) int {
	t.Helper()
	row, col := got.StartPoint()
	where := func() string {
		return fmt.Sprintf("%s:%d:%d %s", file, want.StartPoint().Row+1, want.StartPoint().Column+1, want.Type())
	}
	if want.Type() != got.Type() || want.IsNamed() != got.IsNamed() || want.IsMissing() != got.IsMissing() ||
		want.HasError() != got.HasError() || want.IsError() != got.IsError() ||
		want.Content(src) != got.Content(src) || want.StartPoint().Row != row || want.StartPoint().Column != col {
		t.Fatalf("%s: go-tree-sitter has %s %q, the flat tree %s %q", where(), want.Type(), want.Content(src), got.Type(), got.Content(src))
	}
	if int(want.ChildCount()) != int(got.ChildCount()) {
		t.Fatalf("%s: %d children, the flat tree %d", where(), want.ChildCount(), got.ChildCount())
	}
	for _, field := range g.fields[1:] {
		w, k := want.ChildByFieldName(field), got.ChildByFieldName(field)
		if (w == nil) != (k == nil) || w != nil && (w.StartByte() != k.start || w.EndByte() != k.end || w.Type() != k.Type()) {
			t.Fatalf("%s: field %s: go-tree-sitter %v, the flat tree %v", where(), field, describe(w, src), describeFlat(k, src))
		}
	}
	n := 1
	for i := 0; i < int(want.ChildCount()); i++ {
		// go-tree-sitter's FieldNameForChild miscounts past an extra (a
		// comment before a body is named "body"), and inside an ERROR node
		// it names fields its own ChildByFieldName does not have; the
		// fields themselves are held to ChildByFieldName above.
		if w, k := want.FieldNameForChild(i), got.FieldNameForChild(i); w != k && !want.Child(i).IsExtra() && !want.IsError() {
			t.Fatalf("%s: child %d fills field %q, in the flat tree %q", where(), i, w, k)
		}
		n += compareNodes(t, file, src, g, want.Child(i), got.Child(i))
	}
	return n
}

func describe(n *sitter.Node, src []byte) string {
	if n == nil {
		return "none"
	}
	return fmt.Sprintf("%s %q", n.Type(), n.Content(src))
}

func describeFlat(n *node, src []byte) string {
	if n == nil {
		return "none"
	}
	return fmt.Sprintf("%s %q", n.Type(), n.Content(src))
}
