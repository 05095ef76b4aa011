//go:build cgo

package frontend

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"
)

// Available reports whether this build has the Python and TypeScript
// front ends (it was built with cgo).
func Available() bool { return true }

// Parse lowers one Python, TypeScript or JavaScript file. A file with
// syntax errors is still lowered: tree-sitter recovers, and the parts it
// could not parse are left out.
func Parse(path string, src []byte) (*ir.File, error) {
	g := grammarOf(path)
	if g == nil {
		return nil, fmt.Errorf("%s: not a Python, TypeScript or JavaScript file", path)
	}
	tree, err := parseTree(g, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	l := &lowerer{src: src, file: &ir.File{Path: path, Lang: LangOf(path), Generated: looksGenerated(src)}}
	l.file.Module = l.newFunc("<module>", ir.Pos{Line: 1, Col: 1})
	l.cur = l.file.Module
	root := tree.root()
	if l.file.Lang == Python {
		l.file.Module.Body = l.pyBlock(root)
	} else {
		l.file.Module.Body = l.tsBlock(root)
		l.file.ServerActions = l.opensWithDirective(root, "use server")
	}
	l.file.Ignores = ignores(src)
	l.file.Comments = tree.comments()
	if root.HasError() {
		l.file.SyntaxErrors = countErrors(root)
	}
	return l.file, nil
}

// ignores finds idemcheck:ignore comments by line: cheaper than visiting
// every comment node, and the same for both languages.
func ignores(src []byte) []ir.Ignore {
	if !bytes.Contains(src, []byte("idemcheck:ignore")) {
		return nil
	}
	var out []ir.Ignore
	for i, line := range strings.Split(string(src), "\n") {
		j := strings.Index(line, "idemcheck:ignore")
		if j < 0 {
			continue
		}
		k := strings.LastIndexAny(line[:j], "#/")
		if k < 0 {
			continue
		}
		if line[k] == '/' && k > 0 && line[k-1] == '/' {
			k--
		}
		if ig, ok := parseIgnore(i+1, line[k:]); ok {
			out = append(out, ig)
		}
	}
	return out
}

type lowerer struct {
	src   []byte
	file  *ir.File
	cur   *ir.Func
	class string
	tmp   int
}

func (l *lowerer) newFunc(name string, p ir.Pos) *ir.Func {
	f := &ir.Func{Name: name, Pos: p, Parent: l.cur, Class: l.class}
	if l.class != "" && name != "<lambda>" {
		f.Name = l.class + "." + name
	}
	l.file.Funcs = append(l.file.Funcs, f)
	return f
}

func pos(n *node) ir.Pos {
	row, col := n.StartPoint()
	return ir.Pos{Line: int(row) + 1, Col: int(col) + 1}
}

func (l *lowerer) text(n *node) string { return n.Content(l.src) }

func named(n *node) []*node {
	if n == nil {
		return nil
	}
	out := make([]*node, 0, n.nkid)
	for _, k := range n.children() {
		if k.IsNamed() {
			out = append(out, k)
		}
	}
	return out
}

// fieldAll returns the children of n under the field name.
func fieldAll(n *node, name string) []*node {
	var out []*node
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.FieldNameForChild(i) == name {
			out = append(out, n.Child(i))
		}
	}
	return out
}

func (l *lowerer) enter(f *ir.Func, body func()) {
	saved := l.cur
	l.cur = f
	body()
	l.cur = saved
}

func (l *lowerer) fresh() string {
	l.tmp++
	return fmt.Sprintf("$p%d", l.tmp)
}

// other lowers an expression the IR does not model: its value depends on
// its sub-expressions.
func (l *lowerer) other(n *node, expr func(*node) ir.Expr) ir.Expr {
	o := &ir.Other{Pos: pos(n)}
	for _, c := range named(n) {
		if c.Type() == "comment" {
			continue
		}
		if x := expr(c); x != nil {
			o.Xs = append(o.Xs, x)
		}
	}
	return o
}

func isStringy(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.Str:
		return true
	case *ir.Lit:
		return e.Kind == "str"
	}
	return false
}

func concat(p ir.Pos, a, b ir.Expr) ir.Expr {
	parts := []ir.Expr{}
	for _, x := range []ir.Expr{a, b} {
		if s, ok := x.(*ir.Str); ok && s.Kind == "concat" {
			parts = append(parts, s.Parts...)
		} else {
			parts = append(parts, x)
		}
	}
	return &ir.Str{Kind: "concat", Parts: parts, Pos: p}
}

func countErrors(n *node) int {
	if n.IsError() || n.IsMissing() {
		return 1
	}
	if !n.HasError() {
		return 0
	}
	c := 0
	for i := 0; i < int(n.ChildCount()); i++ {
		c += countErrors(n.Child(i))
	}
	return c
}
