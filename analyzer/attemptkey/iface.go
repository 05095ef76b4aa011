package attemptkey

// Calls through interfaces. A call of an interface method is judged by the
// implementations the analysis can see: methods of this package whose
// type implements the interface, and methods of dependencies whose
// summary facts were imported. With none in view, nothing moves.

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// implFact is a dependency's method implementing an interface method.
type implFact struct {
	cal callee
	s   *Summary
}

// implementations returns the methods implementing the interface method
// an invoke-mode call reaches.
func (e *engine) implementations(c *ssa.CallCommon) ([]*ssa.Function, []implFact) {
	iface, ok := c.Value.Type().Underlying().(*types.Interface)
	if !ok || c.Method == nil {
		return nil, nil
	}
	name := c.Method.Name()
	var local []*ssa.Function
	for _, f := range e.funcs {
		if recv := f.Signature.Recv(); recv != nil && f.Name() == name && implements(recv.Type(), iface) {
			local = append(local, f)
		}
	}
	var facts []implFact
	for _, m := range e.importedMethods()[name] {
		if implements(m.fn.Type().(*types.Signature).Recv().Type(), iface) {
			facts = append(facts, implFact{cal: calleeOf(m.fn), s: m.s})
		}
	}
	return local, facts
}

func implements(t types.Type, iface *types.Interface) bool {
	if types.Implements(t, iface) {
		return true
	}
	if _, isPtr := t.(*types.Pointer); !isPtr {
		return types.Implements(types.NewPointer(t), iface)
	}
	return false
}

type importedMethod struct {
	fn *types.Func
	s  *Summary
}

// importedMethods indexes, by name, the methods of dependencies that have
// a summary, in a stable order.
func (e *engine) importedMethods() map[string][]importedMethod {
	if e.methods != nil {
		return e.methods
	}
	e.methods = map[string][]importedMethod{}
	for _, f := range e.pass.AllObjectFacts() {
		fn, ok := f.Object.(*types.Func)
		s, isSummary := f.Fact.(*Summary)
		if !ok || !isSummary || fn.Pkg() == e.pass.Pkg {
			continue
		}
		if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
			e.methods[fn.Name()] = append(e.methods[fn.Name()], importedMethod{fn, s})
		}
	}
	for _, ms := range e.methods {
		sort.Slice(ms, func(i, j int) bool { return ms[i].fn.FullName() < ms[j].fn.FullName() })
	}
	return e.methods
}

// calleeOf describes a method of a dependency for messages.
func calleeOf(fn *types.Func) callee {
	c := callee{fn: fn, name: fn.Name(), sig: fn.Type().(*types.Signature)}
	if fn.Pkg() != nil {
		c.pkg, c.pkgName = fn.Pkg().Path(), fn.Pkg().Name()
	}
	if recv := c.sig.Recv(); recv != nil {
		c.recv = typeName(recv.Type())
	}
	return c
}
