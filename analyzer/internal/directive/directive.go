// Package directive implements the suppression comment shared by every
// idemcheck rule:
//
//	//idemcheck:ignore IDEM001 the key is read back from the intent row
//
// A directive suppresses diagnostics of the named rules (comma-separated,
// or "all") reported on its own line or on the line below it. A directive
// must give a reason; one without a reason suppresses nothing. Mistakes in
// directives (no reason, an unknown rule, "// idemcheck:ignore" with a
// space, a directive that matched nothing) are reported as warnings by the
// analyzer of package analyzer/directives, from what this package records.
package directive

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

// Prefix starts every idemcheck directive.
const Prefix = "//idemcheck:ignore"

// Directive is one parsed //idemcheck:ignore comment.
type Directive struct {
	Pos    token.Pos
	File   string
	Line   int
	Rules  []string // upper-cased rule IDs, or "ALL"
	Reason string
}

// Covers reports whether d names rule.
func (d Directive) Covers(rule string) bool {
	for _, r := range d.Rules {
		if r == "ALL" || r == strings.ToUpper(rule) {
			return true
		}
	}
	return false
}

// Index holds the directives of one package.
type Index struct {
	fset       *token.FileSet
	directives []Directive
	byLine     map[fileLine][]int
	spaced     []token.Pos // "// idemcheck:ignore …": not a directive to Go
}

type fileLine struct {
	file string
	line int
}

// Parse collects the directives in files.
func Parse(fset *token.FileSet, files []*ast.File) *Index {
	idx := &Index{fset: fset, byLine: map[fileLine][]int{}}
	for _, f := range files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				d, ok := parseComment(c.Text)
				if !ok {
					if isSpaced(c.Text) {
						idx.spaced = append(idx.spaced, c.Slash)
					}
					continue
				}
				p := fset.Position(c.Slash)
				d.Pos, d.File, d.Line = c.Slash, p.Filename, p.Line
				idx.byLine[fileLine{p.Filename, p.Line}] = append(idx.byLine[fileLine{p.Filename, p.Line}], len(idx.directives))
				idx.directives = append(idx.directives, d)
			}
		}
	}
	return idx
}

func parseComment(text string) (Directive, bool) {
	if !strings.HasPrefix(text, Prefix) {
		return Directive{}, false
	}
	rest := text[len(Prefix):]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return Directive{}, false // e.g. //idemcheck:ignored
	}
	// A second comment on the line ("… // want …" in tests, a trailing
	// note) is not part of the reason.
	if i := strings.Index(rest, "//"); i >= 0 {
		rest = rest[:i]
	}
	fields := strings.Fields(rest)
	var d Directive
	if len(fields) > 0 {
		for _, r := range strings.Split(fields[0], ",") {
			if r = strings.TrimSpace(r); r != "" {
				d.Rules = append(d.Rules, strings.ToUpper(r))
			}
		}
		d.Reason = strings.Join(fields[1:], " ")
	}
	return d, true
}

// isSpaced reports a comment that looks like a directive but is not one to
// Go's comment-directive convention: "// idemcheck:ignore …" (a space, or
// several, after the slashes), which suppresses nothing.
func isSpaced(text string) bool {
	rest, ok := strings.CutPrefix(text, "//")
	if !ok || rest == strings.TrimLeft(rest, " \t") {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(rest, " \t"), Prefix[2:])
}

// Suppressed reports whether a diagnostic of rule at pos is covered by a
// directive with a reason on the same line or the line above.
func (idx *Index) Suppressed(rule string, pos token.Pos) bool {
	_, ok := idx.suppressing(rule, pos)
	return ok
}

// suppressing returns the directive that suppresses a diagnostic of rule
// at pos.
func (idx *Index) suppressing(rule string, pos token.Pos) (Directive, bool) {
	if idx == nil || !pos.IsValid() {
		return Directive{}, false
	}
	p := idx.fset.Position(pos)
	for _, line := range []int{p.Line, p.Line - 1} {
		for _, i := range idx.byLine[fileLine{p.Filename, line}] {
			d := idx.directives[i]
			if d.Reason != "" && d.Covers(rule) {
				return d, true
			}
		}
	}
	return Directive{}, false
}

// Directives returns the package's directives, in source order.
func (idx *Index) Directives() []Directive { return idx.directives }

// Spaced returns the positions of comments written "// idemcheck:ignore"
// with a space after the slashes, which are no directive.
func (idx *Index) Spaced() []token.Pos { return idx.spaced }

// Usage is what the rules of one package did with its directives.
type Usage struct {
	mu   sync.Mutex
	ran  map[string]bool               // rules that analyzed the package
	used map[token.Pos]map[string]bool // directive → rules it suppressed a finding of
}

// Ran reports whether rule analyzed the package.
func (u *Usage) Ran(rule string) bool { return u != nil && u.ran[strings.ToUpper(rule)] }

// Used reports whether the directive at pos suppressed a finding of rule
// ("ALL": of any rule).
func (u *Usage) Used(pos token.Pos, rule string) bool {
	if u == nil {
		return false
	}
	if strings.EqualFold(rule, "ALL") {
		return len(u.used[pos]) > 0
	}
	return u.used[pos][strings.ToUpper(rule)]
}

// usages holds a Usage per package being analyzed (*types.Package →
// *Usage). The rules write it as they report; the directives analyzer,
// which requires every rule and so runs after them on the same package in
// the same process, takes it.
var usages sync.Map

func usageOf(pkg *types.Package) *Usage {
	u, _ := usages.LoadOrStore(pkg, &Usage{ran: map[string]bool{}, used: map[token.Pos]map[string]bool{}})
	return u.(*Usage)
}

func (u *Usage) markRan(rule string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.ran[strings.ToUpper(rule)] = true
}

func (u *Usage) markUsed(pos token.Pos, rule string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.used[pos] == nil {
		u.used[pos] = map[string]bool{}
	}
	u.used[pos][strings.ToUpper(rule)] = true
}

// TakeUsage returns what the rules recorded for pkg and forgets it.
func TakeUsage(pkg *types.Package) *Usage {
	u, ok := usages.LoadAndDelete(pkg)
	if !ok {
		return nil
	}
	return u.(*Usage)
}

// Reporter reports a rule's diagnostics through a pass, dropping those a
// directive suppresses, those of a rule the configuration disables, and
// those in generated files (unless the configuration includes them).
// Every driver reports through it, so plain `go vet -vettool` honours the
// configuration as `idemcheck lint` does.
type Reporter struct {
	Pass  *analysis.Pass
	Rule  string
	Index *Index

	generated []*ast.File // files marked "Code generated … DO NOT EDIT."
	testCode  []ast.Node  // functions taking a *testing.T, B, F or testing.TB

	calls   map[*types.Func][]*ast.CallExpr // calls of this package's functions, on first use
	relayed map[relayKey]bool
	usage   *Usage

	// Divert, when set, may turn a diagnostic about to be reported, here
	// or at a generated function's caller, into another: a finding held
	// for callers in other packages (emit's HoldUntilCalled).
	Divert func(analysis.Diagnostic) analysis.Diagnostic
}

// NewReporter parses the pass's directives for rule.
func NewReporter(pass *analysis.Pass, rule string) *Reporter {
	return NewDivertingReporter(pass, rule, nil)
}

// NewDivertingReporter is NewReporter with Divert set before the findings
// of imported generated code are reported at their calls here.
func NewDivertingReporter(pass *analysis.Pass, rule string, divert func(analysis.Diagnostic) analysis.Diagnostic) *Reporter {
	r := &Reporter{Pass: pass, Rule: rule, Index: Parse(pass.Fset, pass.Files), relayed: map[relayKey]bool{}, usage: usageOf(pass.Pkg), Divert: divert}
	r.usage.markRan(rule)
	for _, f := range pass.Files {
		if IsGenerated(pass.Fset, f) {
			r.generated = append(r.generated, f)
		}
		r.testCode = append(r.testCode, testFuncs(pass.TypesInfo, f)...)
	}
	r.relayImported()
	return r
}

// testFuncs returns the functions of f that take a *testing.T, *testing.B,
// *testing.F or a testing.TB: test support, wherever its file is.
func testFuncs(info *types.Info, f *ast.File) []ast.Node {
	var out []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		var ft *ast.FuncType
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		default:
			return true
		}
		if info != nil && takesTesting(info, ft) {
			out = append(out, n)
			return false
		}
		return true
	})
	return out
}

func takesTesting(info *types.Info, ft *ast.FuncType) bool {
	if ft.Params == nil {
		return false
	}
	for _, field := range ft.Params.List {
		t := info.TypeOf(field.Type)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" {
			switch n.Obj().Name() {
			case "T", "B", "F", "TB":
				return true
			}
		}
	}
	return false
}

// IsGenerated reports whether f really is generated code: it carries the
// "// Code generated … DO NOT EDIT." comment in its own source. Under go
// vet, a file that imports "C" reaches the analyzers as cgo's output,
// which carries that comment and a //line directive naming the source
// file; such a file is judged by that source, which cgo did not write.
func IsGenerated(fset *token.FileSet, f *ast.File) bool {
	if !ast.IsGenerated(f) {
		return false
	}
	compiled := fset.File(f.FileStart).Name()
	source := fset.Position(f.Package).Filename
	if source == "" || source == compiled || !strings.HasSuffix(source, ".go") {
		return true
	}
	orig, err := parser.ParseFile(token.NewFileSet(), source, nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return true
	}
	return ast.IsGenerated(orig)
}

// inTestCode reports whether pos lies in a function taking a testing type.
func (r *Reporter) inTestCode(pos token.Pos) bool {
	for _, n := range r.testCode {
		if n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}

// Report emits d unless suppressed. The rule ID goes in d.Category. A
// finding in generated code is reported at the callers of the generated
// function (see relocate), and in the generated file itself only when the
// configuration includes generated files.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if d.Category == "" || d.Category == r.Rule {
		if r.inGenerated(d.Pos) && !r.Index.Suppressed(r.Rule, d.Pos) {
			r.relocate(d)
		}
	}
	r.report(d)
}

func (r *Reporter) report(d analysis.Diagnostic) {
	if dir, ok := r.Index.suppressing(r.Rule, d.Pos); ok {
		r.usage.markUsed(dir.Pos, r.Rule)
		return
	}
	if r.dropped(d.Pos) {
		return
	}
	if d.Category == "" {
		d.Category = r.Rule
	}
	if r.Divert != nil {
		d = r.Divert(d)
	}
	r.Pass.Report(d)
}

// Keeps reports whether a finding of the rule at pos would be reported
// where it is: no directive suppresses it, the configuration keeps it,
// and it is not in generated code (which Report relocates).
func (r *Reporter) Keeps(pos token.Pos) bool {
	_, suppressed := r.Index.suppressing(r.Rule, pos)
	return !suppressed && !r.dropped(pos) && !r.inGenerated(pos)
}

// dropped reports whether a diagnostic at pos is left out by the
// configuration: its rule is disabled, or pos lies in a generated file.
func (r *Reporter) dropped(pos token.Pos) bool {
	// The configuration travels with the analysis, in the key model the
	// rules require; an analyzer without it gets the defaults.
	var cfg *config.Config
	if m, ok := r.Pass.ResultOf[keymodel.Analyzer].(*keymodel.Model); ok {
		cfg = m.Config
	}
	if cfg.Disabled(r.Rule) {
		return true
	}
	if !keymodel.TestCode() && r.inTestCode(pos) {
		return true // test support outside _test.go: only with --tests
	}
	return !cfg.IncludesGenerated() && r.inGenerated(pos)
}
