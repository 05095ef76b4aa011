package directive

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

const src = `package p

func f() {
	//idemcheck:ignore IDEM001 key is read back from the intent row
	a := 1
	b := 2 //idemcheck:ignore IDEM002,IDEM003 provider ignores it
	//idemcheck:ignore IDEM001
	c := 3
	//idemcheck:ignore
	d := 4
	//idemcheck:ignore all generated code
	e := 5
	// idemcheck:ignore IDEM001 a space after the slashes
	//idemcheck:ignored not ours
	_, _, _, _, _ = a, b, c, d, e
}
`

func TestDirectives(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	idx := Parse(fset, []*ast.File{f})
	tf := fset.File(f.Pos())
	at := func(line int) token.Pos { return tf.LineStart(line) + 1 }

	cases := []struct {
		rule string
		line int
		want bool
	}{
		{"IDEM001", 5, true},  // line above
		{"IDEM002", 5, false}, // other rule
		{"IDEM002", 6, true},  // same line
		{"idem003", 6, true},  // case-insensitive
		{"IDEM001", 6, false},
		{"IDEM001", 8, false}, // no reason: suppresses nothing
		{"IDEM001", 10, false},
		{"IDEM004", 12, true}, // all
		{"IDEM001", 13, false},
	}
	for _, c := range cases {
		if got := idx.Suppressed(c.rule, at(c.line)); got != c.want {
			t.Errorf("Suppressed(%s, line %d) = %v, want %v", c.rule, c.line, got, c.want)
		}
	}

	if len(idx.Directives()) != 5 {
		t.Errorf("%d directives, want 5", len(idx.Directives()))
	}
}

func TestSpacedIsNoDirective(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	idx := Parse(fset, []*ast.File{f})
	if sp := idx.Spaced(); len(sp) != 1 || fset.Position(sp[0]).Line != 13 {
		t.Errorf("Spaced() = %v, want the comment on line 13", sp)
	}
	if idx.Suppressed("IDEM001", fset.File(f.Pos()).LineStart(14)) {
		t.Error("a spaced comment suppressed a finding")
	}
}
