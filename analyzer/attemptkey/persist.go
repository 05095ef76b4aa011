package attemptkey

// Persisted before acting. A fresh key is harmless when it is written to
// the database before the effect and the write decides (a conflict on
// redelivery): a write of the key counts only when it dominates the place
// where the key is used, in the same function. Writes after the effect,
// writes on another path, and calls merely named Mark*, Record* or Store*
// do not count; reading the key back is a barrier and handled apart.

import (
	"sort"

	"golang.org/x/tools/go/ssa"
)

// persistSite is a call that writes some origins to the database.
type persistSite struct {
	instr ssa.Instruction
	roots map[*origin]bool
}

// isStore reports calls the key model says write their arguments to a
// database (Exec, QueryRow, SendBatch, gorm Create…).
func (e *engine) isStore(cal callee) bool {
	if cal.fn == nil {
		return false
	}
	kind, ok := e.model.Operation(cal.pkg, cal.recv, cal.name)
	return ok && kind == "store"
}

// persistedArgs returns the indexes (into callArgs) of the arguments a
// call writes to the database, directly or inside a function that does.
func (e *engine) persistedArgs(call ssa.CallInstruction) []int {
	c := call.Common()
	ci := e.callInfo(c, call.Value(), call.Pos())
	if e.isStore(ci.cal) {
		var out []int
		for i := range ci.args {
			if i == 0 && ci.cal.recv != "" {
				continue // the connection, not what is written
			}
			out = append(out, i)
		}
		return out
	}
	var out []int
	switch ci.mode {
	case callLocal:
		out = sortedKeys(e.persistParams[ci.local])
	case callFact:
		out = ci.fact.Persists
	case callIface:
		seen := map[int]bool{}
		for _, impl := range ci.impls {
			for i := range e.persistParams[impl] {
				seen[i] = true
			}
		}
		for _, f := range ci.facts {
			for _, i := range f.s.Persists {
				seen[i] = true
			}
		}
		out = sortedKeys(seen)
	}
	return out
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for i := range m {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// computePersists finds, after propagation, the parameters each function
// writes to the database (to a fixed point over the package's calls) and
// the database writes of fresh origins.
func (e *engine) computePersists() {
	e.persistParams = map[*ssa.Function]map[int]bool{}
	var calls []ssa.CallInstruction
	callFn := map[ssa.CallInstruction]*ssa.Function{}
	for _, f := range e.funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok && c.Common().Value != nil {
					if _, builtin := c.Common().Value.(*ssa.Builtin); !builtin {
						calls = append(calls, c)
						callFn[c] = f
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, c := range calls {
			f := callFn[c]
			args := callArgs(c.Common())
			for _, i := range e.persistedArgs(c) {
				if i >= len(args) {
					continue
				}
				for _, l := range e.labels(e.valKey(args[i])) {
					if l.origin == nil && l.fn == f && !e.persistParams[f][l.param] {
						if e.persistParams[f] == nil {
							e.persistParams[f] = map[int]bool{}
						}
						e.persistParams[f][l.param] = true
						changed = true
					}
				}
			}
		}
	}
	e.persistSites = map[*ssa.Function][]persistSite{}
	for _, c := range calls {
		args := callArgs(c.Common())
		roots := map[*origin]bool{}
		for _, i := range e.persistedArgs(c) {
			if i >= len(args) {
				continue
			}
			for _, l := range e.labels(e.valKey(args[i])) {
				if l.origin != nil {
					roots[l.origin.root] = true
				}
			}
		}
		if len(roots) > 0 {
			f := callFn[c]
			e.persistSites[f] = append(e.persistSites[f], persistSite{c, roots})
		}
	}
}

// persistedBefore reports whether a database write of the finding's key
// runs before the place it is used on every path. A variable merely named
// like a key is no use: for one, a write of it anywhere in the function
// counts (idemKey := uuid.NewString() inserted, then read back).
func (e *engine) persistedBefore(f *finding) bool {
	if f.instr == nil {
		return false
	}
	if e.persistedByCallee(f.o) {
		return true
	}
	for _, s := range e.persistSites[f.fn] {
		if !s.roots[f.o.root] || s.instr == f.instr {
			continue
		}
		if f.obj != nil && !f.leaves || instrDominates(s.instr, f.instr) {
			return true
		}
	}
	return false
}

// persistedOut reports whether fn writes the origin root to the database
// before every return that hands it back: a repository method that draws
// an id and claims its row (insert … on conflict do nothing) before
// returning it. The caller then uses a key whose row already decides, as
// if it had written it itself; a dependency says so in its summary
// (Flow.Persisted).
func (e *engine) persistedOut(fn *ssa.Function, root *origin) bool {
	var sites []persistSite
	for _, s := range e.persistSites[fn] {
		if s.roots[root] {
			sites = append(sites, s)
		}
	}
	if len(sites) == 0 {
		return false
	}
	handsBack := false
	for _, ret := range e.returns[fn] {
		if !e.returnsOrigin(ret, root) {
			continue
		}
		handsBack = true
		dominated := false
		for _, s := range sites {
			if instrDominates(s.instr, ret) {
				dominated = true
				break
			}
		}
		if !dominated {
			return false
		}
	}
	return handsBack
}

func (e *engine) returnsOrigin(ret *ssa.Return, root *origin) bool {
	for _, r := range ret.Results {
		for _, l := range e.labels(e.valKey(r)) {
			if l.origin != nil && l.origin.root == root {
				return true
			}
		}
	}
	return false
}

// persistedByCallee reports whether o came out of a function that had
// written it to the database before handing it back: a function of this
// package (its step), or a dependency whose summary says so.
func (e *engine) persistedByCallee(o *origin) bool {
	if o.root.persisted {
		return true
	}
	for _, s := range o.steps {
		if s.out != nil && e.persistedOut(s.out, o.root) {
			return true
		}
	}
	return false
}
