package emit

// Findings held for callers in other packages. go vet analyzes one
// package at a time, dependencies first, so a package cannot see who calls
// its exported functions. A finding that only callers out of view can make
// real (IDEM002's keyless write, which repeats only if its caller runs
// again) is therefore not reported where it is found: it is reported as
// held, naming the exported functions it hangs on, and every package that
// calls one of them reports a claim. idemcheck lint's driver then reports
// each held finding that no analyzed package claims, the callers staying
// out of view; a caller that can repeat the call reports the finding
// itself. Plain go vet has no driver to resolve them, so holding is only
// on when lint runs the analyzers (SetHolding).

import (
	"go/ast"
	"go/token"
	"go/types"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Diagnostic categories of held findings and claims; the driver reads
// them, they never reach a user.
const (
	HeldCategory  = "held"
	ClaimCategory = "claim"
	// LiveCategory marks a finding held until called: any claim on the
	// functions it hangs on makes it a finding, whatever the call does.
	LiveCategory = "held-live"
	// HeldFor starts the related information naming a function a held
	// finding hangs on: HeldFor + FuncKey(fn) + HeldAs + its short name.
	HeldFor = "held for "
	HeldAs  = " as "
)

var holding bool

// SetHolding turns holding on: set by idemcheck lint's vet tool, whose
// driver resolves held findings and claims.
func SetHolding(on bool) { holding = on }

// Holding reports whether findings may be held for callers.
func Holding() bool { return holding }

// FuncKey names fn the same way in every package: its full name.
func FuncKey(fn *types.Func) string { return fn.Origin().FullName() }

// Hold reports msg at pos as held for the callers of fns; calledInView
// says which of them the package calls itself. handled is
// false when holding is off or the finding is in generated code or left
// out by the configuration: the caller reports it as usual. held is false
// when a directive suppresses it there (handled, nothing to pass on to
// callers): only when held do the callers get it.
func (r *Reporter) Hold(pos token.Pos, msg string, fns []*types.Func, calledInView func(*types.Func) bool) (held, handled bool) {
	if !holding || len(fns) == 0 {
		return false, false
	}
	if !r.rep.Keeps(pos) {
		if r.rep.Index.Suppressed(r.rep.Rule, pos) {
			r.Report(pos, msg) // marks the directive used, reports nothing
			return false, true
		}
		return false, false
	}
	if !r.seen[pos] {
		r.seen[pos] = true
		r.rep.Pass.Report(analysis.Diagnostic{Pos: pos, Category: HeldCategory, Message: msg, Related: heldFor(fns, calledInView)})
	}
	return true, true
}

// HoldUntilCalled is a directive.Reporter's Divert for a finding that is
// one wherever its code runs (IDEM001's key drawn per call), but not in
// dead code: one whose code only exported
// functions lead to that its package does not call (outOfView names them)
// is held for the driver. The driver reports it when a package claims one
// of those functions, by any call, drops it in an application when none
// does, and reports it as called out of view otherwise. nil without
// holding.
func HoldUntilCalled(outOfView func(token.Pos) ([]*types.Func, bool), calledInView func(*types.Func) bool) func(analysis.Diagnostic) analysis.Diagnostic {
	if !holding {
		return nil
	}
	return func(d analysis.Diagnostic) analysis.Diagnostic {
		fns, ok := outOfView(d.Pos)
		if !ok {
			return d
		}
		d.Category = LiveCategory
		d.Related = append(heldFor(fns, calledInView), d.Related...)
		return d
	}
}

// ClaimCalls claims, for the driver, each call in the package of another
// package's function that held(fn) says holds findings until called.
func ClaimCalls(pass *analysis.Pass, callee func(*ast.CallExpr) *types.Func, held func(*types.Func) bool) {
	if !holding {
		return
	}
	for _, file := range pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if fn := callee(call); fn != nil && fn.Pkg() != nil && fn.Pkg() != pass.Pkg && held(fn) {
				Claim(pass, call.Pos(), fn)
			}
			return true
		})
	}
}

// Claim records that a call at pos calls fn, on which findings are held:
// the callers of fn are in view.
func Claim(pass *analysis.Pass, pos token.Pos, fn *types.Func) {
	if holding {
		pass.Report(analysis.Diagnostic{Pos: pos, Category: ClaimCategory, Message: FuncKey(fn)})
	}
}

// FullPosn is pos as "file:line:col", to name it in a fact.
func (r *Reporter) FullPosn(pos token.Pos) string { return r.rep.FullPosn(pos) }

// PosOf is a position in this pass's file set for a "file:line:col" of
// another package, held in a fact. It always adds a small file of its own
// (lines before the one wanted are one byte long), cached per posn: the
// file sets go vet's importer makes for other packages know the lines of
// their declarations only, and placed a held write on its function's line.
func (r *Reporter) PosOf(posn string) token.Pos {
	if pos, ok := r.foreign[posn]; ok {
		return pos
	}
	pos := token.NoPos
	i := strings.LastIndexByte(posn, ':')
	j := strings.LastIndexByte(posn[:max(i, 0)], ':')
	if i > 0 && j > 0 {
		line, err1 := strconv.Atoi(posn[j+1 : i])
		col, err2 := strconv.Atoi(posn[i+1:])
		if err1 == nil && err2 == nil && line >= 1 && col >= 1 && line <= 1<<20 && col <= 1<<16 {
			f := r.rep.Pass.Fset.AddFile(posn[:j], -1, line-1+col)
			lines := make([]int, line)
			for k := range lines {
				lines[k] = k
			}
			f.SetLines(lines)
			pos = f.Pos(line - 1 + col - 1)
		}
	}
	if r.foreign == nil {
		r.foreign = map[string]token.Pos{}
	}
	r.foreign[posn] = pos
	return pos
}

// ShortName is pkg.F or T.M, as a reader names a function.
func ShortName(fn *types.Func) string {
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return n.Obj().Name() + "." + fn.Name()
		}
	}
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// Held findings across interface calls. A package that calls an interface
// method cannot see which types implement it, so it cannot tell whether a
// call reaches a held finding. It claims the interface method instead, by
// the interface's method set, saying what the call does: it settles what
// it reaches (a route or a command line calls it), repeats it (a delivery
// or a retry does), or passes it on to its own exported functions. The
// driver matches a claim to a held finding when the function it hangs on
// is the method called and its receiver has every method of the
// interface. Calls of a function that holds findings only in the driver
// (passed on to it through an interface) claim it the same way, by name.

// Modes of a claim: what the claiming call does to what it reaches.
const (
	ClaimSettles = "settles"
	ClaimRepeats = "repeats"
	ClaimPasses  = "passes"
	// InterfaceClaim starts the message of a claim made through an
	// interface (InterfaceClaim + mode + " " + method + " " + methods)
	// and FuncClaim that of a claim by name (FuncClaim + mode + " " +
	// FuncKey); a bare FuncKey is a claim that settles.
	InterfaceClaim = "interface "
	FuncClaim      = "func "
	// HeldMethods, after a held-for entry's short name, lists the
	// method set of the function's receiver (see MethodSet).
	HeldMethods = " with methods "
	// HeldInView ends a held-for entry whose function its own package
	// calls: the calls it has in view do not repeat the finding (or it
	// would not be held), so only callers elsewhere could.
	HeldInView = " called in view"
)

// MethodSet is the method set of method fn's receiver type, taken as a
// pointer, as the driver matches it against interface claims: the sorted
// hashes of each method's name and signature, comma-separated. It is ""
// for a function, or a method of a generic type.
func MethodSet(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.RecvTypeParams().Len() > 0 {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if types.IsInterface(t) {
		return ""
	}
	return methodHashes(types.NewMethodSet(types.NewPointer(t)))
}

// InterfaceMethods is MethodSet for the interface a method m belongs to,
// or "" when m is no interface method.
func InterfaceMethods(m *types.Func) string {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return ""
	}
	return methodHashes(types.NewMethodSet(sig.Recv().Type()))
}

// signatureTypes is a method's signature without its parameters' names,
// which an interface and the method implementing it need not share
// (Get(ctx context.Context, key string) (id string, err error) implements
// Get(context.Context, string) (string, error)).
func signatureTypes(sig *types.Signature) string {
	list := func(t *types.Tuple) string {
		parts := make([]string, t.Len())
		for i := range parts {
			parts[i] = types.TypeString(t.At(i).Type(), nil)
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	variadic := ""
	if sig.Variadic() {
		variadic = "..."
	}
	return list(sig.Params()) + variadic + list(sig.Results())
}

func methodHashes(ms *types.MethodSet) string {
	var hashes []string
	for sel := range ms.Methods() {
		h := fnv.New64a()
		h.Write([]byte(sel.Obj().Name() + signatureTypes(sel.Type().(*types.Signature))))
		hashes = append(hashes, strconv.FormatUint(h.Sum64(), 36))
	}
	slices.Sort(hashes)
	return strings.Join(hashes, ",")
}

// heldFor is the related information naming the functions fns a finding
// hangs on, with their receivers' method sets, and whether their package
// calls them.
func heldFor(fns []*types.Func, calledInView func(*types.Func) bool) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for _, fn := range fns {
		msg := HeldFor + FuncKey(fn) + HeldAs + ShortName(fn)
		if ms := MethodSet(fn); ms != "" {
			msg += HeldMethods + ms
		}
		if calledInView != nil && calledInView(fn) {
			msg += HeldInView
		}
		out = append(out, analysis.RelatedInformation{Pos: fn.Pos(), Message: msg})
	}
	return out
}

// ClaimInterface records that a call at pos of interface method m
// reaches whatever implements it, in the way mode says. A call that
// repeats names itself and why in why; one that passes on names the
// exported functions in through (calledInView as for Hold).
func ClaimInterface(pass *analysis.Pass, pos token.Pos, m *types.Func, mode, why string, through []*types.Func, calledInView func(*types.Func) bool) {
	claimMode(pass, pos, InterfaceClaim+mode+" "+m.Name()+" "+InterfaceMethods(m), mode, why, through, calledInView)
}

// ClaimFunc is ClaimInterface for a call of fn by name.
func ClaimFunc(pass *analysis.Pass, pos token.Pos, fn *types.Func, mode, why string, through []*types.Func, calledInView func(*types.Func) bool) {
	claimMode(pass, pos, FuncClaim+mode+" "+FuncKey(fn), mode, why, through, calledInView)
}

func claimMode(pass *analysis.Pass, pos token.Pos, msg, mode, why string, through []*types.Func, calledInView func(*types.Func) bool) {
	if !holding {
		return
	}
	d := analysis.Diagnostic{Pos: pos, Category: ClaimCategory, Message: msg}
	switch mode {
	case ClaimRepeats:
		d.Related = []analysis.RelatedInformation{{Pos: pos, Message: why}}
	case ClaimPasses:
		d.Related = heldFor(through, calledInView)
	}
	pass.Report(d)
}
