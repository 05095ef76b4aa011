//go:build cgo

package frontend

// The lowering asks a syntax tree many small questions per node (its type,
// a child by field name, its named children). Through go-tree-sitter's
// Node each question is a cgo call, ChildByFieldName also allocates a C
// string, and every returned node goes through the tree's node cache: on a
// large TypeScript tree that cost more than the parse. So the tree is
// copied out of tree-sitter once, by one C loop over a tree cursor, into
// plain Go data the lowering reads.
//
// The tree-sitter runtime and grammars are go-tree-sitter's own: their C
// objects are linked into the binary through its packages, which this file
// imports. The declarations below are the few functions of tree-sitter's
// api.h (at the version go.mod pins) this loop calls, declared weak so that
// cgo's link of this package alone, which has no tree-sitter objects in
// it, still resolves; the program's link resolves them to go-tree-sitter's
// definitions. TestFlatTreeMatchesGoTreeSitter checks every node of the
// test corpus against go-tree-sitter's Node API.

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct { uint32_t row; uint32_t column; } TSPoint;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

#define WEAK __attribute__((weak))
WEAK TSParser *ts_parser_new(void);
WEAK void ts_parser_delete(TSParser *);
WEAK bool ts_parser_set_language(TSParser *, const TSLanguage *);
WEAK TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
WEAK void ts_tree_delete(TSTree *);
WEAK TSNode ts_tree_root_node(const TSTree *);
WEAK TSTreeCursor ts_tree_cursor_new(TSNode);
WEAK void ts_tree_cursor_delete(TSTreeCursor *);
WEAK bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
WEAK bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
WEAK bool ts_tree_cursor_goto_parent(TSTreeCursor *);
WEAK TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
WEAK uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *);
WEAK uint16_t ts_node_symbol(TSNode);
WEAK uint32_t ts_node_start_byte(TSNode);
WEAK uint32_t ts_node_end_byte(TSNode);
WEAK TSPoint ts_node_start_point(TSNode);
WEAK bool ts_node_is_named(TSNode);
WEAK bool ts_node_is_missing(TSNode);
WEAK bool ts_node_has_error(TSNode);
WEAK uint32_t ts_language_symbol_count(const TSLanguage *);
WEAK const char *ts_language_symbol_name(const TSLanguage *, uint16_t);
WEAK uint32_t ts_language_field_count(const TSLanguage *);
WEAK const char *ts_language_field_name_for_id(const TSLanguage *, uint16_t);
WEAK const TSLanguage *tree_sitter_python(void);
WEAK const TSLanguage *tree_sitter_javascript(void);
WEAK const TSLanguage *tree_sitter_typescript(void);
WEAK const TSLanguage *tree_sitter_tsx(void);

enum { FLAT_NAMED = 1, FLAT_MISSING = 2, FLAT_HAS_ERROR = 4 };

typedef struct {
	uint32_t start, end, row, col;
	int32_t parent;
	uint16_t symbol, field;
	uint8_t flags;
} flat_node;

typedef struct {
	flat_node *nodes;
	int32_t len, cap;
} flat_tree;

static flat_node *flat_push(flat_tree *t) {
	if (t->len == t->cap) {
		int32_t cap = t->cap ? 2 * t->cap : 1024;
		flat_node *n = realloc(t->nodes, (size_t)cap * sizeof(flat_node));
		if (!n) return NULL;
		t->nodes = n;
		t->cap = cap;
	}
	return &t->nodes[t->len++];
}

// flat_parse parses src and writes its nodes in preorder, each with its
// parent's index and the field it fills there. 0 on success, -1 when the
// parser gave no tree, -2 when memory ran out.
static int flat_parse(const TSLanguage *lang, const char *src, uint32_t len, flat_tree *out) {
	TSParser *p = ts_parser_new();
	ts_parser_set_language(p, lang);
	TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
	if (!tree) {
		ts_parser_delete(p);
		return -1;
	}
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	int32_t parent = -1, rc = 0;
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&c);
		flat_node *f = flat_push(out);
		if (!f) { rc = -2; break; }
		f->start = ts_node_start_byte(n);
		f->end = ts_node_end_byte(n);
		TSPoint pt = ts_node_start_point(n);
		f->row = pt.row;
		f->col = pt.column;
		f->parent = parent;
		f->symbol = ts_node_symbol(n);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->flags = (ts_node_is_named(n) ? FLAT_NAMED : 0) | (ts_node_is_missing(n) ? FLAT_MISSING : 0) |
			(ts_node_has_error(n) ? FLAT_HAS_ERROR : 0);
		if (ts_tree_cursor_goto_first_child(&c)) {
			parent = out->len - 1;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			parent = out->nodes[parent].parent;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	ts_tree_delete(tree);
	ts_parser_delete(p);
	return rc;
}

static void flat_free(flat_tree *t) { free(t->nodes); }
*/
import "C"

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/idemcheck/idemcheck/analyzer/polyglot/ir"

	// The packages whose C objects define the functions declared above.
	_ "github.com/smacker/go-tree-sitter"
	_ "github.com/smacker/go-tree-sitter/javascript"
	_ "github.com/smacker/go-tree-sitter/python"
	_ "github.com/smacker/go-tree-sitter/typescript/tsx"
	_ "github.com/smacker/go-tree-sitter/typescript/typescript"
)

// errorSymbol is tree-sitter's ts_builtin_sym_error as a uint16.
const errorSymbol = 0xFFFF

// grammar is one tree-sitter language with its symbol and field names.
type grammar struct {
	lang    *C.TSLanguage
	symbols []string          // by symbol
	fields  []string          // by field id; 0 is "no field"
	fieldID map[string]uint16 // field name → id
}

var (
	grammarsOnce sync.Once
	grammars     map[string]*grammar // by file extension
)

func loadGrammar(lang *C.TSLanguage) *grammar {
	g := &grammar{lang: lang, fieldID: map[string]uint16{}}
	for i := C.uint32_t(0); i < C.ts_language_symbol_count(lang); i++ {
		g.symbols = append(g.symbols, C.GoString(C.ts_language_symbol_name(lang, C.uint16_t(i))))
	}
	g.fields = []string{""}
	for i := C.uint32_t(1); i <= C.ts_language_field_count(lang); i++ {
		name := C.GoString(C.ts_language_field_name_for_id(lang, C.uint16_t(i)))
		g.fields = append(g.fields, name)
		g.fieldID[name] = uint16(i)
	}
	return g
}

func grammarOf(path string) *grammar {
	grammarsOnce.Do(func() {
		py := loadGrammar(C.tree_sitter_python())
		js := loadGrammar(C.tree_sitter_javascript())
		ts := loadGrammar(C.tree_sitter_typescript())
		tsx := loadGrammar(C.tree_sitter_tsx())
		grammars = map[string]*grammar{
			".py": py, ".ts": ts, ".mts": ts, ".cts": ts, ".tsx": tsx,
			".js": js, ".jsx": js, ".mjs": js, ".cjs": js,
		}
	})
	return grammars[strings.ToLower(filepath.Ext(path))]
}

// tree is a parsed file, copied out of tree-sitter.
type tree struct {
	g     *grammar
	nodes []node
	kids  []*node // each node's children, contiguous: nodes[i].kids indexes it
}

// node is one syntax node: the lowering's view of go-tree-sitter's Node,
// with the same method names for what it asks.
type node struct {
	t          *tree
	start, end uint32
	row, col   uint32
	kid0, nkid int32
	symbol     uint16
	field      uint16 // the field this node fills in its parent, 0 for none
	flags      uint8
}

// parseTree parses src with g.
func parseTree(g *grammar, src []byte) (*tree, error) {
	var flat C.flat_tree
	var p *C.char
	if len(src) > 0 {
		p = (*C.char)(unsafe.Pointer(&src[0]))
	}
	rc := C.flat_parse(g.lang, p, C.uint32_t(len(src)), &flat)
	defer C.flat_free(&flat)
	switch rc {
	case -1:
		return nil, errors.New("the parser gave up")
	case -2:
		return nil, errors.New("out of memory while reading the syntax tree")
	}
	raw := unsafe.Slice(flat.nodes, int(flat.len))
	t := &tree{g: g, nodes: make([]node, len(raw))}
	// Children are laid out contiguously per parent: count, then place.
	counts := make([]int32, len(raw))
	for i := range raw {
		if pa := raw[i].parent; pa >= 0 {
			counts[pa]++
		}
	}
	var off int32
	for i := range raw {
		r := &raw[i]
		t.nodes[i] = node{
			t: t, start: uint32(r.start), end: uint32(r.end), row: uint32(r.row), col: uint32(r.col),
			kid0: off, symbol: uint16(r.symbol), field: uint16(r.field), flags: uint8(r.flags),
		}
		off += counts[i]
	}
	t.kids = make([]*node, off)
	for i := range raw {
		if pa := raw[i].parent; pa >= 0 {
			p := &t.nodes[pa]
			if p.IsError() {
				// An ERROR node has no fields: the cursor reports those of
				// hidden nodes inside it, which ChildByFieldName does not.
				t.nodes[i].field = 0
			}
			t.kids[p.kid0+p.nkid] = &t.nodes[i]
			p.nkid++
		}
	}
	return t, nil
}

func (t *tree) root() *node { return &t.nodes[0] }

// comments returns the spans of the tree's comment nodes, in source order.
func (t *tree) comments() []ir.Span {
	var out []ir.Span
	for i := range t.nodes {
		if n := &t.nodes[i]; n.Type() == "comment" {
			out = append(out, ir.Span{Start: int(n.start), End: int(n.end)})
		}
	}
	return out
}

func (n *node) children() []*node { return n.t.kids[n.kid0 : n.kid0+n.nkid] }

// Type is the node's grammar symbol name ("call_expression", "ERROR").
func (n *node) Type() string {
	if n.symbol == errorSymbol {
		return "ERROR"
	}
	if int(n.symbol) < len(n.t.g.symbols) {
		return n.t.g.symbols[n.symbol]
	}
	return ""
}

func (n *node) IsNamed() bool   { return n.flags&C.FLAT_NAMED != 0 }
func (n *node) IsMissing() bool { return n.flags&C.FLAT_MISSING != 0 }
func (n *node) HasError() bool  { return n.flags&C.FLAT_HAS_ERROR != 0 }
func (n *node) IsError() bool   { return n.symbol == errorSymbol }

// ChildByFieldName is the first child filling the field, or nil.
func (n *node) ChildByFieldName(name string) *node {
	id, ok := n.t.g.fieldID[name]
	if !ok {
		return nil
	}
	for _, k := range n.children() {
		if k.field == id {
			return k
		}
	}
	return nil
}

func (n *node) ChildCount() uint32 { return uint32(n.nkid) }
func (n *node) Child(i int) *node  { return n.t.kids[n.kid0+int32(i)] }
func (n *node) FieldNameForChild(i int) string {
	return n.t.g.fields[n.Child(i).field]
}

// Content is the node's source text.
func (n *node) Content(src []byte) string { return string(src[n.start:n.end]) }

// StartPoint is the node's zero-based row and column (in bytes).
func (n *node) StartPoint() (row, col uint32) { return n.row, n.col }
