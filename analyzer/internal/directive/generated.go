package directive

// Findings in generated code. sqlc, ent and gorm-gen output is where a
// service's queries live, so generated files are analyzed like any other;
// but nobody fixes a generated file, so a finding inside one is reported
// at its first caller outside generated code, with the generated line as
// related information. Callers in the same package are found directly;
// callers in other packages through a GeneratedFindings fact on the
// generated function. include_generated only decides whether the finding
// is also shown where it is, in the generated file.

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// GeneratedFindings is the fact of a function of generated code that holds
// findings (or calls one that does): its callers report them.
type GeneratedFindings struct {
	Findings []GeneratedFinding
}

// GeneratedFinding is one finding inside generated code.
type GeneratedFinding struct {
	Rule    string
	Message string
	Posn    string // "file:line:col" of the finding in the generated file
	Via     string // the generated function, as callers name it
}

// AFact implements analysis.Fact.
func (*GeneratedFindings) AFact() {}

func (g *GeneratedFindings) String() string {
	return fmt.Sprintf("generated findings %d", len(g.Findings))
}

// GeneratedFact is a fact type holding GeneratedFindings. A fact type
// belongs to one analyzer, so each rule that relays findings across
// packages declares its own (IDEM007 uses *GeneratedFindings itself):
//
//	type generatedFindings struct{ directive.GeneratedFindings }
type GeneratedFact interface {
	analysis.Fact
	generated() *GeneratedFindings
}

func (g *GeneratedFindings) generated() *GeneratedFindings { return g }

// factType returns the analyzer's GeneratedFact type, or nil.
func (r *Reporter) factType() reflect.Type {
	for _, f := range r.Pass.Analyzer.FactTypes {
		if _, ok := f.(GeneratedFact); ok {
			return reflect.TypeOf(f).Elem()
		}
	}
	return nil
}

func (r *Reporter) usesFacts() bool { return r.factType() != nil }

// newFact returns an empty fact of the analyzer's GeneratedFact type.
func (r *Reporter) newFact() GeneratedFact {
	return reflect.New(r.factType()).Interface().(GeneratedFact)
}

func (r *Reporter) inGenerated(pos token.Pos) bool {
	for _, f := range r.generated {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return true
		}
	}
	return false
}

// relocate reports d, which lies in generated code, at the callers of the
// generated function holding it.
func (r *Reporter) relocate(d analysis.Diagnostic) {
	fn := r.enclosingFunc(d.Pos)
	if fn == nil {
		return
	}
	g := GeneratedFinding{Rule: r.Rule, Message: d.Message, Posn: r.fullPosn(d.Pos), Via: funcName(fn)}
	r.relay(fn, g, d.Related, 0)
}

// maxGeneratedDepth bounds chains of generated functions calling each other.
const maxGeneratedDepth = 8

// relay reports g at every call of fn in this package's own code, passes
// it on from calls in generated code, and exports it for callers in other
// packages.
func (r *Reporter) relay(fn *types.Func, g GeneratedFinding, related []analysis.RelatedInformation, depth int) {
	if depth > maxGeneratedDepth || r.relayed[relayKey{fn, g.Posn}] {
		return
	}
	r.relayed[relayKey{fn, g.Posn}] = true
	for _, call := range r.callsOf()[fn] {
		if r.inGenerated(call.Pos()) {
			if caller := r.enclosingFunc(call.Pos()); caller != nil {
				h := g
				h.Via = funcName(caller)
				r.relay(caller, h, related, depth+1)
			}
			continue
		}
		r.report(r.atCaller(call.Pos(), g, related))
	}
	if r.usesFacts() && fn.Pkg() == r.Pass.Pkg && fn.Exported() {
		facts := r.newFact()
		r.Pass.ImportObjectFact(fn, facts)
		facts.generated().Findings = append(facts.generated().Findings, g)
		r.Pass.ExportObjectFact(fn, facts)
	}
	for _, im := range r.interfaceMethods(fn) {
		// Called through the package's interface (sqlc's Querier, which
		// callers hold instead of *Queries): its calls are the method's.
		r.relay(im, g, related, depth+1)
	}
}

// interfaceMethods are the methods of the interfaces this package
// declares that fn, a method, implements: sqlc's emit_interface output
// declares Querier beside Queries.
func (r *Reporter) interfaceMethods(fn *types.Func) []*types.Func {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || fn.Pkg() != r.Pass.Pkg {
		return nil
	}
	recv := sig.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	var out []*types.Func
	scope := r.Pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok || iface.Empty() {
			continue
		}
		if !types.Implements(types.NewPointer(recv), iface) && !types.Implements(recv, iface) {
			continue
		}
		for i := 0; i < iface.NumMethods(); i++ {
			if m := iface.Method(i); m.Name() == fn.Name() {
				out = append(out, m)
			}
		}
	}
	return out
}

type relayKey struct {
	fn   *types.Func
	posn string
}

// atCaller is g reported at a call of the generated function.
func (r *Reporter) atCaller(pos token.Pos, g GeneratedFinding, related []analysis.RelatedInformation) analysis.Diagnostic {
	rel := []analysis.RelatedInformation{{Pos: r.posOf(g.Posn), Message: "in generated code, reached through " + g.Via}}
	return analysis.Diagnostic{Pos: pos, Category: r.Rule, Message: g.Message, Related: append(rel, related...)}
}

// relayImported reports the generated findings of imported functions at
// their calls in this package's own code, and passes them on from calls
// in this package's generated code.
func (r *Reporter) relayImported() {
	if !r.usesFacts() {
		return
	}
	for _, file := range r.Pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := callee(r.Pass.TypesInfo, call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg() == r.Pass.Pkg {
				return true
			}
			facts := r.newFact()
			if !r.Pass.ImportObjectFact(fn, facts) {
				return true
			}
			for _, g := range facts.generated().Findings {
				if g.Rule != r.Rule {
					continue
				}
				if r.inGenerated(call.Pos()) {
					if caller := r.enclosingFunc(call.Pos()); caller != nil {
						h := g
						h.Via = funcName(caller)
						r.relay(caller, h, nil, 0)
					}
					continue
				}
				r.report(r.atCaller(call.Pos(), g, nil))
			}
			return true
		})
	}
}

// callsOf maps the functions of this package to their calls in it.
func (r *Reporter) callsOf() map[*types.Func][]*ast.CallExpr {
	if r.calls != nil {
		return r.calls
	}
	r.calls = map[*types.Func][]*ast.CallExpr{}
	for _, file := range r.Pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn := callee(r.Pass.TypesInfo, call); fn != nil && fn.Pkg() == r.Pass.Pkg {
					r.calls[fn] = append(r.calls[fn], call)
				}
			}
			return true
		})
	}
	return r.calls
}

func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr: // a generic function instantiated explicitly
		switch g := f.X.(type) {
		case *ast.Ident:
			id = g
		case *ast.SelectorExpr:
			id = g.Sel
		}
	}
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

// enclosingFunc returns the declared function whose body holds pos.
func (r *Reporter) enclosingFunc(pos token.Pos) *types.Func {
	for _, file := range r.Pass.Files {
		if pos < file.FileStart || pos > file.FileEnd {
			continue
		}
		for _, decl := range file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
				fn, _ := r.Pass.TypesInfo.Defs[fd.Name].(*types.Func)
				return fn
			}
		}
	}
	return nil
}

func funcName(fn *types.Func) string {
	name := fn.Name()
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}

func (r *Reporter) fullPosn(pos token.Pos) string {
	p := r.Pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// posOf returns a position in this pass's file set for "file:line:col",
// which may be in another package: a small file of that name is added
// whose lines before the one wanted are one byte long, since related
// information needs only the line and column.
func (r *Reporter) posOf(posn string) token.Pos {
	var found token.Pos
	r.Pass.Fset.Iterate(func(f *token.File) bool {
		if strings.HasPrefix(posn, f.Name()+":") {
			if line, col, ok := lineCol(posn[len(f.Name())+1:]); ok && line <= f.LineCount() {
				found = f.LineStart(line) + token.Pos(col-1)
				return false
			}
		}
		return true
	})
	if found.IsValid() {
		return found
	}
	i := strings.LastIndexByte(posn, ':')
	j := strings.LastIndexByte(posn[:max(i, 0)], ':')
	if i < 0 || j <= 0 {
		return token.NoPos
	}
	line, col, ok := lineCol(posn[j+1:])
	if !ok {
		return token.NoPos
	}
	f := r.Pass.Fset.AddFile(posn[:j], -1, line-1+col)
	lines := make([]int, line)
	for k := range lines {
		lines[k] = k
	}
	f.SetLines(lines)
	return f.Pos(line - 1 + col - 1)
}

func lineCol(s string) (int, int, bool) {
	a, b, ok := strings.Cut(s, ":")
	line, err1 := strconv.Atoi(a)
	col, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || line < 1 || col < 1 || line > 1<<20 || col > 1<<16 {
		return 0, 0, false
	}
	return line, col, true
}

// IsStandard reports a package of the standard library: an analyzer with
// facts runs on every dependency under go vet, and the standard library
// holds no generated queries.
func IsStandard(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return true
	}
	root := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return build.Default.GOROOT != "" && strings.HasPrefix(name, root)
}

// FullPosn is pos as "file:line:col", to name it in a fact.
func (r *Reporter) FullPosn(pos token.Pos) string { return r.fullPosn(pos) }
