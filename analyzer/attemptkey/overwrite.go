package attemptkey

// Strong updates through barriers. The memory model is flow-insensitive, so
// a local variable that first holds a fresh value and is then overwritten by
// a read-back (key := uuid.NewString(); row.Scan(&key)) would hold both. A
// read that the barrier call dominates, with no store into the variable
// after the barrier, sees only what the barrier wrote: a store the barrier
// does not dominate reaches such a read only through the barrier (otherwise
// a path from the entry would avoid it).

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// readBack reports whether the load reads a local variable last written by
// a barrier (Scan(&v)).
func (e *engine) readBack(load *ssa.UnOp) bool {
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	bs := e.fillingBarriers(alloc)
	if len(bs) == 0 {
		return false
	}
	var stores []ssa.Instruction
	for _, r := range *alloc.Referrers() {
		if s, ok := r.(*ssa.Store); ok {
			stores = append(stores, s)
		}
	}
	for _, b := range bs {
		if !instrDominates(b, load) {
			continue
		}
		after := false
		for _, s := range stores {
			if instrDominates(b, s) {
				after = true
				break
			}
		}
		if !after {
			return true
		}
	}
	return false
}

// fillingBarriers returns the barrier calls that receive the address of
// alloc. It gives up (nil) when the address escapes anywhere else: into a
// closure, another call, a field.
func (e *engine) fillingBarriers(alloc *ssa.Alloc) []ssa.Instruction {
	if bs, ok := e.fills[alloc]; ok {
		return bs
	}
	e.fills[alloc] = nil
	var calls []ssa.Instruction
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != alloc {
				return nil
			}
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil
			}
		case *ssa.MakeInterface:
			c := e.variadicBarrierCall(r)
			if c == nil {
				return nil
			}
			calls = append(calls, c)
		case *ssa.Call:
			if !e.isBarrierCall(r) {
				return nil
			}
			calls = append(calls, r)
		default:
			return nil
		}
	}
	e.fills[alloc] = calls
	return calls
}

// variadicBarrierCall follows &x boxed into the variadic slice of a call
// such as Scan(dest ...any) and returns that call when it is a barrier.
func (e *engine) variadicBarrierCall(mi *ssa.MakeInterface) ssa.Instruction {
	refs := *mi.Referrers()
	if len(refs) != 1 {
		return nil
	}
	st, ok := refs[0].(*ssa.Store)
	if !ok || st.Val != mi {
		return nil
	}
	ia, ok := st.Addr.(*ssa.IndexAddr)
	if !ok {
		return nil
	}
	arr, ok := ia.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	for _, r := range *arr.Referrers() {
		sl, ok := r.(*ssa.Slice)
		if !ok {
			continue
		}
		for _, u := range *sl.Referrers() {
			if c, ok := u.(*ssa.Call); ok && e.isBarrierCall(c) {
				return c
			}
		}
	}
	return nil
}

func (e *engine) isBarrierCall(c *ssa.Call) bool {
	return e.callInfo(c.Common(), c, c.Pos()).mode == callBarrier
}

// instrDominates reports whether a executes before b on every path to b.
func instrDominates(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab != bb {
		return ab.Dominates(bb)
	}
	for _, in := range ab.Instrs {
		switch in {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// markReadBack marks, before propagation starts, the locations that
// barriers fill: pointer arguments and the pointers boxed into a variadic
// dest ...any (row.Scan(&in.OrderID, &in.RequestID)). A field so filled is
// read back, whatever its name says, and identity labels skip it even when
// its address is taken before the call is visited.
func (e *engine) markReadBack() {
	for _, f := range e.funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if alloc, ok := instr.(*ssa.Alloc); ok && e.onlyBarrierResults(alloc) {
					// rec, err := repo.GetByIdempotencyKey(ctx, k): a local
					// holding only what a barrier returned is read back.
					e.clean[key{alloc, ""}] = true
				}
				c, ok := instr.(*ssa.Call)
				if !ok || !e.isBarrierCall(c) {
					continue
				}
				for _, a := range c.Call.Args {
					if isPointer(a.Type()) {
						e.clean[e.addrKey(a)] = true
					}
					for _, p := range boxedPointers(a) {
						e.clean[e.addrKey(p)] = true
					}
				}
			}
		}
	}
}

// boxedPointers returns the pointers a variadic ...any argument carries.
func boxedPointers(a ssa.Value) []ssa.Value {
	sl, ok := a.(*ssa.Slice)
	if !ok {
		return nil
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, u := range *ia.Referrers() {
			st, ok := u.(*ssa.Store)
			if !ok || st.Addr != ia {
				continue
			}
			if mi, ok := st.Val.(*ssa.MakeInterface); ok && isPointer(mi.X.Type()) {
				out = append(out, mi.X)
			}
		}
	}
	return out
}

// onlyBarrierResults reports a local variable whose every store is a
// result of a barrier call.
func (e *engine) onlyBarrierResults(alloc *ssa.Alloc) bool {
	stored := false
	for _, r := range *alloc.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != alloc {
			continue
		}
		v := st.Val
		if ex, ok := v.(*ssa.Extract); ok {
			v = ex.Tuple
		}
		c, ok := v.(*ssa.Call)
		if !ok || !e.isBarrierCall(c) {
			return false
		}
		stored = true
	}
	return stored
}
