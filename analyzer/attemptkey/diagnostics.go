package attemptkey

// Diagnostics: which findings are reported, and how.

import (
	"fmt"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

func (e *engine) diagnostics() []analysis.Diagnostic {
	sort.SliceStable(e.findings, func(i, j int) bool { return e.findings[i].pos < e.findings[j].pos })
	// One origin reaching several sinks in a function is one mistake:
	// report it at the provider-facing (strong) sinks if it reaches any,
	// else at the last name-based sink.
	type group struct {
		fn *ssa.Function
		o  *origin
	}
	// A variable is reported once, where it is first tainted.
	var candidates []*finding
	for _, f := range e.findings {
		if f.obj != nil {
			if e.reportedOb[f.obj] {
				continue
			}
			e.reportedOb[f.obj] = true
		}
		candidates = append(candidates, f)
	}
	// Name-based sinks of one origin in one function: reported once, where
	// the key leaves (the call that sends it or writes the request), else
	// at the last one; the others become related information. Silent when
	// a database write of the key dominates that place.
	strong := map[group]bool{}
	weak := map[group][]*finding{}
	for _, f := range candidates {
		g := group{f.fn, f.o.root}
		if !f.weak {
			strong[g] = true
		} else {
			weak[g] = append(weak[g], f)
		}
	}
	chosen := map[group]*finding{}
	for g, fs := range weak {
		if c := whereItLeaves(fs); !strong[g] && !e.persistedBefore(c) {
			chosen[g] = c
		}
	}
	var out []analysis.Diagnostic
	if len(e.capped) > 0 && len(e.pass.Files) > 0 {
		// Never silently: a bound that stopped the analysis early is
		// reported, so a clean result is not mistaken for a verdict.
		out = append(out, analysis.Diagnostic{Pos: e.pass.Files[0].Package, Category: "note",
			Message: "note: the analysis of this package was cut short (" + strings.Join(e.capped, "; ") + "); its findings may be incomplete"})
	}
	var reported []*finding
	shared := map[*finding]bool{}
	for _, f := range candidates {
		g := group{f.fn, f.o.root}
		if f.weak && chosen[g] != f {
			continue
		}
		if e.sharedByRetries(f) {
			// The retries share the key, and nothing here redelivers
			// the call: only callers in other packages may (relay.go).
			shared[f] = true
		}
		if f.weak && f.o.kind == kindIdentity && strings.Contains(keyname.Normalize(f.desc), "dedup") {
			// Deduplicating inbound deliveries by their message id is
			// what a message id is for; a key sent to a provider is not.
			continue
		}
		reported = append(reported, f)
	}
	sentBy := e.collapseLeaves(reported)
	for _, f := range reported {
		leaves, folded := sentBy[f]
		if folded && leaves == nil {
			continue // reported at the helper that attached the key
		}
		o := f.o
		pos := f.pos
		var effectSteps []analysis.RelatedInformation
		if f.weak {
			eff, ok, unsent := e.effectOf(f)
			if unsent {
				continue // the struct reaches only calls that send nothing
			}
			if ok && eff.call.Pos().IsValid() {
				// Reported at the call that sends it; where the field
				// was set, and the returns it crossed, are related.
				pos = eff.call.Pos()
				for _, s := range eff.steps {
					effectSteps = append(effectSteps, analysis.RelatedInformation{Pos: s.pos, Message: s.msg})
				}
				effectSteps = append(effectSteps, analysis.RelatedInformation{Pos: pos, Message: "sent by " + shortFuncDisplay(eff.fn)})
			}
		}
		// The message names the source; where it is, is the first step
		// of the related information, in the same form as every position
		// of the report.
		what := o.source + " (" + o.kind + ")"
		if len(o.via) > 0 {
			what += " via " + strings.Join(o.via, " → ")
		}
		if len(leaves) > 0 {
			what += fmt.Sprintf(", sent by %d calls (e.g. %s)", len(leaves), shortFuncDisplay(leaves[0].fn))
		}
		msg := fmt.Sprintf("idempotency key built from %s; %s: %s", what, consequence(o.kind), remedy)
		var related []analysis.RelatedInformation
		srcPos := o.pos
		if !srcPos.IsValid() {
			srcPos = e.posOf(o.posn)
		}
		if srcPos.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: srcPos, Message: fmt.Sprintf("%s: %s", o.source, o.kind)})
		}
		for _, s := range o.steps {
			related = append(related, analysis.RelatedInformation{Pos: s.pos, Message: s.msg})
		}
		for _, s := range f.hops {
			related = append(related, analysis.RelatedInformation{Pos: s.pos, Message: s.msg})
		}
		used := "used as idempotency key: " + f.desc
		if len(effectSteps) > 0 {
			used += " in " + shortFuncDisplay(f.fn)
		}
		related = append(related, analysis.RelatedInformation{Pos: f.pos, Message: used})
		related = append(related, effectSteps...)
		if f.weak {
			g := group{f.fn, f.o.root}
			for _, other := range weak[g] {
				if other != f && other.pos != f.pos {
					related = append(related, analysis.RelatedInformation{Pos: other.pos, Message: "also stored as " + other.desc})
				}
			}
		}
		for _, l := range leaves {
			related = append(related, analysis.RelatedInformation{Pos: l.pos, Message: "sent by " + shortFuncDisplay(l.fn) + ": " + l.desc})
		}
		d := analysis.Diagnostic{Pos: pos, Category: Rule.ID, Message: msg, Related: related}
		if shared[f] {
			e.holdForCallers(f, d)
			continue
		}
		if e.holdFallback(f, d) {
			continue // its callers decide (fallback.go)
		}
		out = append(out, d)
	}
	return out
}

// collapseLeaves folds the findings of a key that one helper attaches and
// many calls send. A finding A in function F is the attachment when other
// findings of the same source took the same steps as A up to F and then
// came out of F (F returned the value or wrote it into its caller's
// memory) before leaving elsewhere: they differ only in their leave call.
// With two leave sites or more, A is reported alone, with the leaves as
// related information; a single leave site is reported as before. The
// result maps each attachment to its leaves (in source order) and each
// folded leave to nil.
func (e *engine) collapseLeaves(reported []*finding) map[*finding][]*finding {
	out := map[*finding][]*finding{}
	for _, a := range reported {
		if _, folded := out[a]; folded {
			continue
		}
		var leaves []*finding
		seen := map[token.Pos]bool{}
		for _, f := range reported {
			if f == a || f.fn == a.fn || f.o.root != a.o.root || !cameOutOf(f.o.steps, a.o.steps, a.fn) {
				continue
			}
			if _, folded := out[f]; folded {
				continue
			}
			if !seen[f.pos] {
				seen[f.pos] = true
				leaves = append(leaves, f)
			}
		}
		if len(leaves) < 2 {
			continue
		}
		out[a] = leaves
		for _, f := range leaves {
			out[f] = nil
		}
	}
	return out
}

// cameOutOf reports whether steps begin with prefix and then leave the
// function fn.
func cameOutOf(steps, prefix []step, fn *ssa.Function) bool {
	if len(steps) <= len(prefix) {
		return false
	}
	for i, s := range prefix {
		if steps[i].pos != s.pos {
			return false
		}
	}
	return steps[len(prefix)].out == fn
}

// shortFuncDisplay names a function of the package being analyzed without
// its package: Client.CreatePayment.
func shortFuncDisplay(f *ssa.Function) string {
	s := funcDisplay(f)
	if f.Pkg != nil {
		s = strings.TrimPrefix(s, f.Pkg.Pkg.Name()+".")
	}
	return s
}

// consequence says which repetition computes a different key. A broker
// redelivers a message with the same id (SQS, WhatsApp, AMQP message_id):
// the id changes only when the sender re-sends it.
func consequence(kind string) string {
	switch kind {
	case kindIdentity:
		return "a re-sent message computes a different key"
	case kindRequest:
		return "a retried request computes a different key"
	case kindAttempt:
		return "a retry computes a different key"
	}
	return "a redelivery computes a different key"
}

// whereItLeaves picks, among the name-based sinks of one origin in one
// function (in source order), the first where the key leaves the function
// (a call that sends it or sets a header), else the last one.
func whereItLeaves(fs []*finding) *finding {
	for _, f := range fs {
		if f.leaves {
			return f
		}
	}
	return fs[len(fs)-1]
}
