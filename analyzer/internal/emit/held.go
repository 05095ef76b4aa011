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
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Diagnostic categories of held findings and claims; the driver reads
// them, they never reach a user.
const (
	HeldCategory  = "held"
	ClaimCategory = "claim"
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

// Hold reports msg at pos as held for the callers of fns. handled is
// false when holding is off or the finding is in generated code or left
// out by the configuration: the caller reports it as usual. held is false
// when a directive suppresses it there (handled, nothing to pass on to
// callers): only when held do the callers get it.
func (r *Reporter) Hold(pos token.Pos, msg string, fns []*types.Func) (held, handled bool) {
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
		d := analysis.Diagnostic{Pos: pos, Category: HeldCategory, Message: msg}
		for _, fn := range fns {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: fn.Pos(), Message: HeldFor + FuncKey(fn) + HeldAs + ShortName(fn)})
		}
		r.rep.Pass.Report(d)
	}
	return true, true
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
