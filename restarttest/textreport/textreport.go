// Package textreport writes a restart-test Report as the human text report:
// per round a timeline of attempts and provider requests, the checks, the
// output tail of failed attempts, and the summary line. It has no styling of
// its own: the caller's Style decorates its parts (cmd uses the ui styles on
// a terminal).
package textreport

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/idemcheck/idemcheck/internal/english"
	"github.com/idemcheck/idemcheck/restarttest"
)

// Part names a piece of the text report that a Style may decorate.
type Part int

const (
	PartTitle       Part = iota // the report's title
	PartCode                    // handler, keys, queries
	PartMuted                   // secondary detail
	PartWarn                    // notes that do not fail
	PartPass                    // PASS and ✓
	PartFail                    // FAIL, ✗ and failure summaries
	PartStrong                  // round headings
	PartPassSummary             // the summary line of a passing run
)

// Style decorates the text report, e.g. with terminal colours; nil writes
// plain text.
type Style func(p Part, text string) string

// Write writes the human report of rep to w. A nil style writes plain text.
func Write(w io.Writer, rep *restarttest.Report, style Style) error {
	tw := &writer{w: w, style: style, unit: "delivery"}
	if rep.Broker != "" {
		// The broker, not idemcheck, hands each copy of the message to a
		// consumer: an attempt is a consumer process's run.
		tw.unit = "consumer"
	}
	tw.header(rep)
	for _, r := range rep.Rounds {
		tw.round(r)
	}
	switch rep.Verdict {
	case restarttest.VerdictPass:
		tw.line("%s", tw.render(PartPassSummary, rep.Summary))
	case restarttest.VerdictIncomplete, restarttest.VerdictInterrupted:
		tw.line("%s", tw.render(PartWarn, rep.Summary))
	default:
		tw.line("%s", tw.render(PartFail, rep.Summary))
	}
	return tw.err
}

const (
	passMark = "✓"
	failMark = "✗"
	// notApplicableMark marks a check that had nothing to look at: neither
	// ✓ nor ✗.
	notApplicableMark = "–"
)

type writer struct {
	w     io.Writer
	style Style
	err   error
	keys  map[string]string // the round's keys, shortened to tell them apart
	// unit names what Attempt.Delivery counts: a delivery idemcheck made,
	// or, with a broker, a consumer process.
	unit string
}

func (t *writer) render(p Part, text string) string {
	if t.style == nil {
		return text
	}
	return t.style(p, text)
}

func (t *writer) line(format string, args ...any) {
	if t.err != nil {
		return
	}
	_, t.err = fmt.Fprintf(t.w, format+"\n", args...)
}

func (t *writer) header(rep *restarttest.Report) {
	t.line("%s %s %s", t.render(PartTitle, "restart-test"), t.render(PartCode, rep.Handler), t.render(PartMuted, "("+rep.DeliveryText()+")"))
	kept := ""
	if rep.Kept {
		kept = " (kept)"
	}
	t.line("%s", t.render(PartMuted, "schema "+rep.Schema+kept))
	if rep.SchemaCheck != "" && rep.SchemaCheck != restarttest.SchemaChecked {
		t.line("%s", t.render(PartWarn, "note: "+rep.SchemaCheck))
	}
	if rep.Seed != nil {
		t.line("%s", t.render(PartMuted, fmt.Sprintf("random kill points, --seed %d", *rep.Seed)))
	}
	if !rep.HasCleanRound() {
		t.line("")
		return
	}
	l := rep.Learned
	eps := ""
	if len(l.Endpoints) > 0 {
		eps = " (" + strings.Join(l.Endpoints, ", ") + ")"
	}
	t.line("%s", t.render(PartMuted, fmt.Sprintf("clean delivery: %s, %s%s", english.Plural(l.Writes, "committed write"), english.Plural(l.EffectRequests, "effect request"), eps)))
	t.line("")
}

func (t *writer) round(r restarttest.Round) {
	verdict := t.render(PartPass, "PASS")
	note := ""
	switch {
	case !r.Passed:
		verdict = t.render(PartFail, "FAIL")
		if why := r.Untested(); why != "" {
			note = t.render(PartWarn, "  ("+why+")")
		}
	case r.Untested() != "":
		// Not a pass: the round had nothing to judge a restart or a race by.
		verdict = t.render(PartWarn, "NOT TESTED")
		note = t.render(PartWarn, "  ("+r.Untested()+")")
	}
	kp, _ := restarttest.ParseKillPoint(r.KillPoint)
	t.line("%s  %s  %s%s", t.render(PartStrong, fmt.Sprintf("round %d", r.Index)), kp.Label(), verdict, note)

	var keys []string
	for _, q := range r.EffectRequests {
		if q.IdempotencyKey != "" && !slices.Contains(keys, q.IdempotencyKey) {
			keys = append(keys, q.IdempotencyKey)
		}
	}
	t.keys = restarttest.ShortKeys(keys)
	for _, n := range r.SendNotes(shortJSON) {
		t.line("  %s", t.render(PartMuted, n))
	}
	t.rendezvous(r.Rendezvous)
	if r.RaceNotRun != "" {
		t.line("  %s", t.render(PartWarn, "race not run: "+r.RaceNotRun))
	}
	concurrent := kp.Concurrent()
	t.attempts(r, concurrent)
	if concurrent {
		t.line("  %s", t.render(PartMuted, english.Plural(r.Writes, "committed write")+" in the round"))
	}
	t.probes(r)
	if r.EscapedProcesses > 0 {
		t.line("  %s", t.render(PartWarn, fmt.Sprintf("%s left outside the handler's process group (setsid, daemon): killed", english.Plural(r.EscapedProcesses, "process"))))
	}
	t.localEffects(r.LocalEffects)
	t.checks(r.Checks)
	if !r.Passed {
		t.outputTails(r)
	}
	t.line("")
}

// attempts is the round's timeline: each attempt with the provider requests
// it made, then the requests no single attempt made.
func (t *writer) attempts(r restarttest.Round, concurrent bool) {
	shown := make([]bool, len(r.EffectRequests))
	byDelivery := false
	for _, a := range r.Attempts {
		byDelivery = byDelivery || a.Delivery > 1
	}
	for _, a := range r.Attempts {
		label := fmt.Sprintf("%-10s", fmt.Sprintf("attempt %d", a.Index))
		detail := fmt.Sprintf("%dms, %s", a.DurationMS, english.Plural(a.Writes, "write"))
		if byDelivery {
			label = fmt.Sprintf("%-20s", fmt.Sprintf("%s %d attempt %d", t.unit, a.Delivery, a.Index))
		}
		if concurrent {
			// Writes of simultaneous deliveries cannot be told apart.
			detail = fmt.Sprintf("%dms", a.DurationMS)
		}
		desc := a.Describe()
		if len(desc) >= 26 {
			// A long description ("…, then exit 1") would run into
			// the timing: keep a gap the eye reads as a column.
			desc += " "
		}
		t.line("  %s %-26s %s", label, desc, t.render(PartMuted, detail))
		for i, q := range r.EffectRequests {
			if q.Delivery == a.Delivery && q.Attempt == a.Index {
				shown[i] = true
				t.request(q)
			}
		}
	}
	var rest []restarttest.EffectRequest
	for i, q := range r.EffectRequests {
		if !shown[i] {
			rest = append(rest, q)
		}
	}
	if len(rest) > 0 {
		t.line("  %s", t.render(PartMuted, "provider (deliveries at once):"))
		for _, q := range rest {
			t.request(q)
		}
	}
}

func (t *writer) request(q restarttest.EffectRequest) {
	key := t.render(PartFail, "no key")
	if q.IdempotencyKey != "" {
		key = "key " + t.render(PartCode, t.keys[q.IdempotencyKey])
	}
	amount := ""
	if q.Amount != "" {
		amount = " amount " + q.Amount
	}
	t.line("    %s  %s%s → %s", q.Endpoint, key, amount, q.Answer())
}

// rendezvous says whether a concurrent round's deliveries really raced.
func (t *writer) rendezvous(rvs []restarttest.Rendezvous) {
	for _, rv := range rvs {
		if rv.Reached {
			t.line("  %s", t.render(PartMuted, fmt.Sprintf("rendezvous at the %s: %d of %d deliveries held and released together after %dms",
				rv.Point, rv.Arrived, rv.Deliveries, rv.WaitedMS)))
			continue
		}
		t.line("  %s", t.render(PartWarn, fmt.Sprintf("rendezvous at the %s not reached: %d of %d deliveries (%s)",
			rv.Point, rv.Arrived, rv.Deliveries, rv.Note)))
	}
}

// probes lists the contract's probes of a --client-key round.
func (t *writer) probes(r restarttest.Round) {
	if len(r.Attempts) > 0 && r.Attempts[0].IdempotencyKey != "" && len(r.Probes) > 0 {
		t.line("  %s", t.render(PartMuted, "client key "+r.Attempts[0].IdempotencyKey+" on every attempt"))
	}
	for _, p := range r.Probes {
		what := ""
		switch p.Name {
		case restarttest.ProbeMismatch:
			what = p.Changed + " "
		case restarttest.ProbeOtherClient:
			what = "client 2 "
		case restarttest.ProbeInFlight:
			what = "a fresh key sent again while its first request is held at the provider "
		}
		got := p.Answer()
		if n := p.Executed(); n > 0 {
			got += ", " + english.Plural(n, "effect") + " executed"
		}
		t.line("  %s %s→ %s", t.render(PartMuted, fmt.Sprintf("probe %-13s", p.Name)), what, got)
	}
}

func (t *writer) checks(cs []restarttest.Check) {
	if !anyFailed(cs) {
		var marks []string
		for _, c := range cs {
			mark := t.render(PartPass, passMark)
			if !c.Applicable {
				mark = t.render(PartMuted, notApplicableMark)
			}
			marks = append(marks, mark+" "+c.Name)
		}
		t.line("  %s", strings.Join(marks, "  "))
		return
	}
	for _, c := range cs {
		switch {
		case !c.Applicable:
			t.line("  %s %-15s %s", t.render(PartMuted, notApplicableMark), c.Name, t.render(PartMuted, "not applicable: "+c.Detail))
		case c.Passed:
			t.line("  %s %s", t.render(PartPass, passMark), c.Name)
		default:
			t.line("  %s %-15s %s", t.render(PartFail, failMark), c.Name, c.Detail)
		}
	}
}

func anyFailed(cs []restarttest.Check) bool {
	return slices.ContainsFunc(cs, restarttest.Check.Failed)
}

// localEffects shows what the --effect-sql queries counted.
func (t *writer) localEffects(ls []restarttest.LocalEffect) {
	for _, l := range ls {
		ref := "reference"
		if l.Expected != nil {
			ref = fmt.Sprintf("clean round %d", *l.Expected)
		}
		t.line("  %s %s %s", t.render(PartMuted, "local"), t.render(PartCode, l.Query), t.render(PartMuted, fmt.Sprintf("→ %d (%s)", l.Count, ref)))
	}
}

// outputTails shows the end of the output of attempts that failed on their
// own (not the ones idemcheck killed on purpose).
func (t *writer) outputTails(r restarttest.Round) {
	for _, a := range r.Attempts {
		if a.Outcome == restarttest.OutcomeAcked || a.Outcome == restarttest.OutcomeKilled {
			continue
		}
		what, lines := a.OutputTail()
		if len(lines) == 0 {
			continue
		}
		t.line("  %s", t.render(PartMuted, fmt.Sprintf("%s of %s %d attempt %d (last lines):", what, t.unit, a.Delivery, a.Index)))
		for _, l := range lines {
			t.line("    %s %s", t.render(PartMuted, "|"), l)
		}
	}
}

// shortJSON shortens a JSON value for display, keeping a string's quotes.
func shortJSON(v string) string {
	r := []rune(v)
	if len(r) <= 16 {
		return v
	}
	if r[0] == '"' {
		return string(r[:13]) + "…\""
	}
	return string(r[:14]) + "…"
}
