package attemptkey

// Shared by retries. A key drawn once, before a loop that retries the
// call until it succeeds (or outside a closure that a retry helper runs
// again), holds for those retries: every iteration sends the same key.
// It is wrong only when the whole invocation can run again for the same
// intent, which is what a redeliverable entry does (a broker consumer, a
// job worker, a webhook receiver); from an HTTP route or a command line
// nothing the process can see repeats it. A counter is different: it is
// drawn anew by every iteration, wherever it was declared.

import (
	"go/ast"
	"go/token"

	"github.com/idemcheck/idemcheck/analyzer/reach"
)

// sharedByRetries reports a finding whose key is drawn outside the retry
// loop (or retried closure) that sends it, in code no redeliverable entry
// of this package reaches.
func (e *engine) sharedByRetries(f *finding) bool {
	if e.reach == nil || f.o.kind == kindCounter || !f.pos.IsValid() {
		return false
	}
	scope, ok := e.reach.RetryScope(f.pos)
	if !ok || e.enteredIn(f.o, scope) {
		return false
	}
	return e.reach.At(scope.Pos())&reach.Redelivery == 0
}

// enteredIn reports whether o was drawn inside scope, or came into it
// through a call inside it.
func (e *engine) enteredIn(o *origin, scope ast.Node) bool {
	inside := func(p token.Pos) bool { return p.IsValid() && scope.Pos() <= p && p < scope.End() }
	if inside(o.pos) {
		return true
	}
	if !o.pos.IsValid() && o.posn != "" && inside(e.posOf(o.posn)) {
		return true
	}
	for _, s := range o.steps {
		if inside(s.pos) {
			return true
		}
	}
	return false
}
