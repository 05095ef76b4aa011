package attemptkey

// Report at the effect. A key set as a field of a struct is harmless
// until the struct is handed to a call that sends or writes it: a
// constructor (NewEventHeader) that fills in IdempotencyKey sends
// nothing. The finding goes to that call, following the struct forward
// through loads, enclosing structs and slices, and the constructor's
// returns into its callers in this package; where the field was set
// becomes related information.

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// effect is the call that hands a key-carrying struct out of the code
// that built it.
type effect struct {
	fn    *ssa.Function
	call  ssa.CallInstruction
	steps []step // returns it crossed on the way, in order
}

// effectOf returns the one call that sends the struct whose field f
// sets, or false when there is none or more than one (then the finding
// stays where the field is set). unsent is true when the struct reaches
// only calls that send nothing (a log line, the answer to the request
// being served) and goes nowhere else: its field is no sink.
func (e *engine) effectOf(f *finding) (eff effect, ok, unsent bool) {
	st, isStore := f.instr.(*ssa.Store)
	if !isStore {
		return effect{}, false, false
	}
	fa, isField := st.Addr.(*ssa.FieldAddr)
	if !isField {
		return effect{}, false, false
	}
	w := effectWalk{e: e, seen: map[ssa.Value]bool{}}
	w.follow(fa.X, f.fn, nil, 0)
	if len(w.found) == 0 {
		return effect{}, false, w.observed && !w.escaped
	}
	var sends []effect
	for _, c := range w.found {
		if !e.isStore(describeCallee(c.call.Common())) {
			sends = append(sends, c)
		}
	}
	if len(sends) == 0 {
		sends = w.found
	}
	if len(sends) != 1 {
		return effect{}, false, false
	}
	return sends[0], true, false
}

type effectWalk struct {
	e     *engine
	seen  map[ssa.Value]bool
	found []effect
	// observed: a call that sends nothing took the struct; escaped: it
	// went where this walk does not follow (a channel, a map, a global,
	// callers out of view).
	observed, escaped bool
}

// maxEffectDepth bounds the values followed from one field store.
const maxEffectDepth = 12

func (w *effectWalk) follow(v ssa.Value, fn *ssa.Function, steps []step, depth int) {
	if depth > maxEffectDepth {
		w.escaped = true
		return
	}
	if v == nil || w.seen[v] || len(w.found) > 1 {
		return
	}
	w.seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op == token.MUL {
				w.follow(r, fn, steps, depth+1)
			}
		case *ssa.Store:
			if r.Val != v {
				continue
			}
			switch a := r.Addr.(type) {
			case *ssa.Global:
				w.escaped = true
			case *ssa.FieldAddr:
				w.follow(a.X, fn, steps, depth+1)
			case *ssa.IndexAddr:
				w.follow(a.X, fn, steps, depth+1)
			default:
				w.follow(a, fn, steps, depth+1)
			}
		case *ssa.Slice:
			w.follow(r, fn, steps, depth+1)
		case *ssa.MakeInterface:
			w.follow(r, fn, steps, depth+1)
		case *ssa.ChangeType:
			w.follow(r, fn, steps, depth+1)
		case *ssa.Phi:
			w.follow(r, fn, steps, depth+1)
		case *ssa.Send, *ssa.MapUpdate:
			w.escaped = true
		case *ssa.Return:
			w.returned(fn, steps, depth)
		case ssa.CallInstruction:
			cal := describeCallee(r.Common())
			switch {
			case cal.builtin == "append":
				if val := r.Value(); val != nil {
					w.follow(val, fn, steps, depth+1)
				}
			case cal.builtin != "":
			case cal.fn != nil && w.e.model.Observes(cal.pkg, cal.recv, cal.name), answersRequest(r.Common()):
				w.observed = true
			default:
				w.found = append(w.found, effect{fn: fn, call: r, steps: steps})
			}
		}
	}
}

// returned follows a struct returned by fn into the callers of fn in this
// package.
func (w *effectWalk) returned(fn *ssa.Function, steps []step, depth int) {
	if fn.Signature.Results().Len() != 1 {
		w.escaped = true
		return
	}
	for _, caller := range w.e.funcs {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if callee := c.Call.StaticCallee(); callee == nil || originOf(callee) != fn {
					continue
				}
				s := append(append([]step(nil), steps...), step{pos: c.Pos(), msg: "returned by " + funcDisplay(fn)})
				w.follow(c, caller, s, depth+1)
			}
		}
	}
	if fn.Object() == nil || fn.Object().Exported() {
		w.escaped = true // callers in other packages, or a closure's
	}
}
