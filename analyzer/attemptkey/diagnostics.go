package attemptkey

// Diagnostics: which findings are reported, and how.

import (
	"fmt"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

// isPersistCall reports calls that write their arguments to a database:
// a per-attempt key handed to one of them is being persisted (to be read
// back), not used as a key yet.
func isPersistCall(cal callee) bool {
	n := cal.name
	switch n {
	case "Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext", "NamedExec", "NamedExecContext",
		"NamedQuery", "NamedQueryContext", "Queue", "CopyFrom", "SendBatch", "MustExec", "MustExecContext", "QueryRowx", "Queryx",
		"SetNX", "SetNx", "HSetNX", "SAdd", "PutItem", "TransactWriteItems":
		return true
	}
	lower := strings.ToLower(n)
	for _, p := range []string{"insert", "save", "persist", "store", "upsert", "record", "createintent", "putintent", "writeintent", "mark"} {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

// markPersisted collects the origins handed to database writes.
func (e *engine) markPersisted() {
	for _, f := range e.funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				cal := describeCallee(call.Common())
				if !isPersistCall(cal) {
					continue
				}
				for _, a := range callArgs(call.Common()) {
					for _, l := range e.labels(e.valKey(a)) {
						if l.origin != nil {
							e.persisted[l.origin.root] = true
						}
					}
				}
			}
		}
	}
}

func (e *engine) diagnostics() []analysis.Diagnostic {
	e.markPersisted()
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
	strong := map[group]bool{}
	lastWeak := map[group]*finding{}
	for _, f := range candidates {
		g := group{f.fn, f.o.root}
		if !f.weak {
			strong[g] = true
		} else if !e.persisted[f.o.root] {
			lastWeak[g] = f
		}
	}
	var out []analysis.Diagnostic
	for _, f := range candidates {
		g := group{f.fn, f.o.root}
		if f.weak && (e.persisted[f.o.root] || strong[g] || lastWeak[g] != f) {
			continue
		}
		if f.weak && f.o.kind == kindIdentity && strings.Contains(keyname.Normalize(f.desc), "dedup") {
			// Deduplicating inbound deliveries by their message id is
			// what a message id is for; a key sent to a provider is not.
			continue
		}
		o := f.o
		msg := fmt.Sprintf("idempotency key built from %s (%s) at %s; %s: %s", o.source, o.kind, o.posn, consequence(o.kind), remedy)
		var related []analysis.RelatedInformation
		if o.pos.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: o.pos, Message: fmt.Sprintf("%s: %s", o.source, o.kind)})
		} else if len(o.via) > 0 {
			msg = fmt.Sprintf("idempotency key built from %s (%s) at %s via %s; %s: %s", o.source, o.kind, o.posn, strings.Join(o.via, " → "), consequence(o.kind), remedy)
		}
		for _, s := range o.steps {
			related = append(related, analysis.RelatedInformation{Pos: s.pos, Message: s.msg})
		}
		for _, s := range f.hops {
			related = append(related, analysis.RelatedInformation{Pos: s.pos, Message: s.msg})
		}
		related = append(related, analysis.RelatedInformation{Pos: f.pos, Message: "used as idempotency key: " + f.desc})
		out = append(out, analysis.Diagnostic{Pos: f.pos, Category: Rule.ID, Message: msg, Related: related})
	}
	return out
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
