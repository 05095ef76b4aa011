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

	bad := idx.Malformed("IDEM001", true)
	if len(bad) != 2 || bad[0].Line != 7 || bad[1].Line != 9 {
		t.Errorf("Malformed(IDEM001, true) = %+v, want lines 7 and 9", bad)
	}
	if bad := idx.Malformed("IDEM002", false); len(bad) != 0 {
		t.Errorf("Malformed(IDEM002, false) = %+v, want none", bad)
	}
}
