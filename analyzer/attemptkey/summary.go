package attemptkey

// Summaries: what a function does with per-attempt values, exported as facts.

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

func (e *engine) addParamSink(f *ssa.Function, s paramSink) {
	// One sink per parameter, path and strength is enough to report a
	// caller's argument; keeping every description would grow with the
	// length of a chain of helpers that pass the key on.
	for _, o := range e.paramSinks[f] {
		if o.param == s.param && o.path == s.path && o.weak == s.weak {
			return
		}
	}
	e.paramSinks[f] = append(e.paramSinks[f], s)
	e.changed = true
}

// record notes a per-attempt origin reaching a sink at pos. The first
// origin found for a position is kept.
func (e *engine) record(fn *ssa.Function, instr ssa.Instruction, leaves bool, pos token.Pos, o *origin, desc string, weak bool, obj types.Object, hops []step) {
	if !pos.IsValid() {
		return
	}
	if old, ok := e.findingAt[pos]; ok {
		if old.weak && !weak {
			old.weak, old.o, old.desc, old.hops = false, o, desc, hops
		}
		return
	}
	f := &finding{fn: fn, instr: instr, leaves: leaves, pos: pos, o: o, desc: desc, weak: weak, obj: obj, hops: hops}
	e.findingAt[pos] = f
	e.findings = append(e.findings, f)
}

func (e *engine) checkSinks() {
	for _, s := range e.sites {
		k := e.valKey(s.val)
		if s.isAddr {
			k = e.addrKey(s.val)
		}
		for _, l := range e.labels(k) {
			if l.origin != nil {
				e.record(s.fn, s.instr, s.leaves, s.pos, l.origin, s.desc, s.weak, s.obj, nil)
			} else {
				e.addParamSink(l.fn, paramSink{param: l.param, path: l.path, desc: s.desc, posn: e.posn(s.pos), pos: s.pos, weak: s.weak})
			}
		}
	}
}

// exportFacts publishes the summaries of the package's named functions.
func (e *engine) exportFacts() {
	for _, f := range e.funcs {
		if f.Parent() != nil {
			continue
		}
		obj, ok := f.Object().(*types.Func)
		// Only exported functions and methods can be called from other
		// packages.
		if !ok || obj.Pkg() != e.pass.Pkg || !obj.Exported() {
			continue
		}
		s := e.summarize(f)
		if !s.empty() {
			s.sort()
			e.pass.ExportObjectFact(obj, s)
		}
	}
}

func (e *engine) flowFrom(l *label, f *ssa.Function, to int, toPath string) (Flow, bool) {
	fl := Flow{To: to, ToPath: toPath}
	switch {
	case l.origin != nil:
		o := l.origin
		fl.From, fl.Source, fl.Kind, fl.Posn = -1, o.source, o.kind, o.posn
		fl.Via = append([]string(nil), o.via...)
		fl.Via = append(fl.Via, funcDisplay(f))
		fl.Persisted = e.persistedByCallee(o) || e.persistedOut(f, o.root)
		return fl, true
	case l.fn == f:
		fl.From, fl.FromPath = l.param, l.path
		return fl, true
	}
	return fl, false
}

func (e *engine) summarize(f *ssa.Function) *Summary {
	s := &Summary{}
	seen := map[string]bool{}
	addFlow := func(dst *[]Flow, fl Flow) {
		k := fmt.Sprint(fl)
		if !seen[k] {
			seen[k] = true
			*dst = append(*dst, fl)
		}
	}
	n := f.Signature.Results().Len()
	for _, ret := range e.returns[f] {
		for i, r := range ret.Results {
			if i >= n || !carriesData(r.Type()) {
				continue
			}
			for _, en := range e.entriesUnder(e.valKey(r)) {
				if fl, ok := e.flowFrom(en.l, f, i, en.path); ok {
					addFlow(&s.Results, fl)
				}
			}
		}
	}
	for j, p := range f.Params {
		if !carriesData(p.Type()) || !mayHoldPointer(p.Type()) {
			continue
		}
		for _, en := range e.entriesUnder(key{p, ""}) {
			if en.l.fn == f && en.l.param == j {
				continue
			}
			if fl, ok := e.flowFrom(en.l, f, j, en.path); ok {
				addFlow(&s.Outs, fl)
			}
		}
	}
	for _, ps := range e.paramSinks[f] {
		k := fmt.Sprint(ps.param, ps.path, ps.desc, ps.weak)
		if seen[k] {
			continue
		}
		seen[k] = true
		s.Sinks = append(s.Sinks, SinkFlow{Param: ps.param, Path: ps.path, Sink: ps.desc, Posn: ps.posn, Weak: ps.weak})
	}
	s.Persists = sortedKeys(e.persistParams[f])
	return s
}
