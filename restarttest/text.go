package restarttest

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// stderrTailLines is how much of a failed handler's stderr the text shows.
const stderrTailLines = 6

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
// plain text. The package itself has no styling of its own.
type Style func(p Part, text string) string

// WriteText writes the human report: per round a timeline, the checks, the
// stderr tail of failed attempts, and the summary line. A nil style writes
// plain text.
func WriteText(w io.Writer, rep *Report, style Style) error {
	st := newTextStyles(style)
	tw := &textWriter{w: w, st: st, unit: "delivery"}
	if rep.Broker != "" {
		// The broker, not idemcheck, hands each copy of the message to a
		// consumer: an attempt is a consumer process's run.
		tw.unit = "consumer"
	}
	tw.header(rep)
	for _, r := range rep.Rounds {
		tw.round(r)
	}
	if rep.Verdict == VerdictPass {
		tw.line("%s", st.PassSummary.Render(rep.Summary))
	} else {
		tw.line("%s", st.Fail.Render(rep.Summary))
	}
	return tw.err
}

// partStyle renders one Part with the caller's Style.
type partStyle struct {
	style Style
	part  Part
}

func (p partStyle) Render(text string) string {
	if p.style == nil {
		return text
	}
	return p.style(p.part, text)
}

// textStyles holds a renderer per Part, so the writer reads st.Pass.Render(…).
type textStyles struct {
	Title, Code, Muted, Warn, Pass, Fail, Bold, PassSummary partStyle
	PassMark, FailMark                                      string
}

func newTextStyles(s Style) *textStyles {
	return &textStyles{
		Title: partStyle{s, PartTitle}, Code: partStyle{s, PartCode}, Muted: partStyle{s, PartMuted},
		Warn: partStyle{s, PartWarn}, Pass: partStyle{s, PartPass}, Fail: partStyle{s, PartFail},
		Bold: partStyle{s, PartStrong}, PassSummary: partStyle{s, PartPassSummary},
		PassMark: "✓", FailMark: "✗",
	}
}

type textWriter struct {
	w      io.Writer
	st     *textStyles
	err    error
	keyLen int // shortened key length that tells the round's keys apart
	// unit names what Attempt.Delivery counts: a delivery idemcheck made,
	// or, with a broker, a consumer process.
	unit string
}

func (t *textWriter) line(format string, args ...any) {
	if t.err != nil {
		return
	}
	_, t.err = fmt.Fprintf(t.w, format+"\n", args...)
}

func (t *textWriter) header(rep *Report) {
	st := t.st
	mode := deliveryText(rep)
	t.line("%s %s %s", st.Title.Render("restart-test"), st.Code.Render(rep.Handler), st.Muted.Render("("+mode+")"))
	kept := ""
	if rep.Kept {
		kept = " (kept)"
	}
	t.line("%s", st.Muted.Render("schema "+rep.Schema+kept))
	if rep.SchemaCheck != "" && rep.SchemaCheck != SchemaChecked {
		t.line("%s", st.Warn.Render("note: "+rep.SchemaCheck))
	}
	if rep.Seed != nil {
		t.line("%s", st.Muted.Render(fmt.Sprintf("random kill points, --seed %d", *rep.Seed)))
	}
	if !hasCleanRound(rep) {
		t.line("")
		return
	}
	l := rep.Learned
	eps := ""
	if len(l.Endpoints) > 0 {
		eps = " (" + strings.Join(l.Endpoints, ", ") + ")"
	}
	t.line("%s", st.Muted.Render(fmt.Sprintf("clean delivery: %s, %s%s", plural(l.Writes, "committed write"), plural(l.EffectRequests, "effect request"), eps)))
	t.line("")
}

func (t *textWriter) round(r Round) {
	st := t.st
	verdict := st.Pass.Render("PASS")
	if !r.Passed {
		verdict = st.Fail.Render("FAIL")
	}
	kp, _ := ParseKillPoint(r.KillPoint)
	note := ""
	if r.KillNotReached() {
		note = st.Warn.Render("  (kill point not reached)")
	}
	t.line("%s  %s  %s%s", st.Bold.Render(fmt.Sprintf("round %d", r.Index)), kp.Label(), verdict, note)

	var keys []string
	for _, q := range r.EffectRequests {
		if q.IdempotencyKey != "" && !slices.Contains(keys, q.IdempotencyKey) {
			keys = append(keys, q.IdempotencyKey)
		}
	}
	t.keyLen = shortKeyLen(keys)
	t.sends(r)
	t.rendezvous(r.Rendezvous)
	shown := make([]bool, len(r.EffectRequests))
	concurrent := kp.Kind == KillConcurrent
	byDelivery := maxDelivery(r) > 1
	for _, a := range r.Attempts {
		label := fmt.Sprintf("%-10s", fmt.Sprintf("attempt %d", a.Index))
		detail := fmt.Sprintf("%dms, %s", a.DurationMS, plural(a.Writes, "write"))
		if byDelivery {
			label = fmt.Sprintf("%-20s", fmt.Sprintf("%s %d attempt %d", t.unit, a.Delivery, a.Index))
		}
		if concurrent {
			// Writes of simultaneous deliveries cannot be told apart.
			detail = fmt.Sprintf("%dms", a.DurationMS)
		}
		t.line("  %s %-26s %s", label, describeOutcome(a), st.Muted.Render(detail))
		for i, q := range r.EffectRequests {
			if q.Delivery == a.Delivery && q.Attempt == a.Index {
				shown[i] = true
				t.request(q)
			}
		}
	}
	var rest []EffectRequest
	for i, q := range r.EffectRequests {
		if !shown[i] {
			rest = append(rest, q)
		}
	}
	if len(rest) > 0 {
		t.line("  %s", st.Muted.Render("provider (deliveries at once):"))
		for _, q := range rest {
			t.request(q)
		}
	}
	if concurrent {
		t.line("  %s", st.Muted.Render(plural(r.Writes, "committed write")+" in the round"))
	}
	t.probes(r)
	if r.EscapedProcesses > 0 {
		t.line("  %s", st.Warn.Render(fmt.Sprintf("%s left outside the handler's process group (setsid, daemon): killed", plural(r.EscapedProcesses, "process"))))
	}
	t.localEffects(r.LocalEffects)
	t.checks(r.Checks)
	if !r.Passed {
		t.stderrTails(r)
	}
	t.line("")
}

func (t *textWriter) request(q EffectRequest) {
	st := t.st
	key := st.Fail.Render("no key")
	if q.IdempotencyKey != "" {
		key = "key " + st.Code.Render(shortKeyN(q.IdempotencyKey, t.keyLen))
	}
	amount := ""
	if q.Amount != "" {
		amount = " amount " + q.Amount
	}
	t.line("    %s  %s%s → %s", q.Endpoint, key, amount, q.Answer())
}

// Answer says what the fake provider did with the request, as the reports
// show it.
func (q EffectRequest) Answer() string {
	switch {
	case q.Result == ResultDropped:
		return "dropped (killed before the provider saw it)"
	case q.ResponseWithheld:
		return "executed " + q.EffectID + ", killed before the response arrived"
	case q.Result == ResultExecuted:
		return fmt.Sprintf("%d executed %s", q.Status, q.EffectID)
	}
	return fmt.Sprintf("%d %s", q.Status, q.Result)
}

// Describe says how the attempt ended, as the reports show it.
func (a Attempt) Describe() string { return describeOutcome(a) }

// DeliveryText says how the message reached the handler, for a report's
// header.
func (rep *Report) DeliveryText() string { return deliveryText(rep) }

// KillNotReached reports whether the round had a kill point that no attempt
// reached.
func (r Round) KillNotReached() bool {
	kp, _ := ParseKillPoint(r.KillPoint)
	return kp.kills() && !r.KillReached
}

// ShortKeys shortens each key to the shortest prefix that still tells the
// keys apart, as the text report does.
func ShortKeys(keys []string) map[string]string {
	n := shortKeyLen(keys)
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		out[k] = shortKeyN(k, n)
	}
	return out
}

// resent says which envelope fields the re-sent delivery renewed.
func (t *textWriter) sends(r Round) {
	for _, n := range r.sendNotes(shortJSON) {
		t.line("  %s", t.st.Muted.Render(n))
	}
}

// SendNotes say how a resend, respell or provider-forgets round's second
// delivery differed from the first, values in full.
func (r Round) SendNotes() []string { return r.sendNotes(func(s string) string { return s }) }

func (r Round) sendNotes(show func(string) string) []string {
	kp, _ := ParseKillPoint(r.KillPoint)
	if kp.Kind == KillForgets {
		return []string{"delivery 2 is the same message again after delivery 1 was acknowledged (its acknowledgement lost); the provider forgot every key in between, as its retention does"}
	}
	if len(r.Resent) == 0 && len(r.Respelled) == 0 {
		return nil
	}
	after := "after delivery 1 was acknowledged"
	for _, a := range r.Attempts {
		if a.Delivery == 1 && a.KilledAt != "" && kp.Kind == KillRespell {
			after = "after delivery 1 was killed at " + a.KilledAt + ", before its redelivery"
			break
		}
	}
	var out []string
	note := "delivery 2 re-sent " + after
	if parts := changeList(r.Resent, show); len(parts) > 0 {
		note += ", with fresh " + strings.Join(parts, ", ")
	}
	out = append(out, note)
	if parts := changeList(r.Respelled, show); len(parts) > 0 {
		out = append(out, "spelled another way: members reordered, "+strings.Join(parts, ", "))
	}
	return out
}

func changeList(changes []EnvelopeChange, show func(string) string) []string {
	var parts []string
	for _, c := range changes {
		parts = append(parts, fmt.Sprintf("%s %s → %s", c.Path, show(c.From), show(c.To)))
	}
	return parts
}

// rendezvous says whether a concurrent round's deliveries really raced.
func (t *textWriter) rendezvous(rvs []Rendezvous) {
	for _, rv := range rvs {
		if rv.Reached {
			t.line("  %s", t.st.Muted.Render(fmt.Sprintf("rendezvous at the %s: %d of %d deliveries held and released together after %dms",
				rv.Point, rv.Arrived, rv.Deliveries, rv.WaitedMS)))
			continue
		}
		t.line("  %s", t.st.Warn.Render(fmt.Sprintf("rendezvous at the %s not reached: %d of %d deliveries (%s)",
			rv.Point, rv.Arrived, rv.Deliveries, rv.Note)))
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

// notApplicableMark marks a check that had nothing to look at: neither ✓
// nor ✗.
const notApplicableMark = "–"

func (t *textWriter) checks(cs []Check) {
	st := t.st
	if allPassed(cs) {
		var marks []string
		for _, c := range cs {
			mark := st.Pass.Render(st.PassMark)
			if !c.Applicable {
				mark = st.Muted.Render(notApplicableMark)
			}
			marks = append(marks, mark+" "+c.Name)
		}
		t.line("  %s", strings.Join(marks, "  "))
		return
	}
	for _, c := range cs {
		switch {
		case !c.Applicable:
			t.line("  %s %-15s %s", st.Muted.Render(notApplicableMark), c.Name, st.Muted.Render("not applicable: "+c.Detail))
		case c.Passed:
			t.line("  %s %s", st.Pass.Render(st.PassMark), c.Name)
		default:
			t.line("  %s %-15s %s", st.Fail.Render(st.FailMark), c.Name, c.Detail)
		}
	}
}

// localEffects shows what the --effect-sql queries counted.
func (t *textWriter) localEffects(ls []LocalEffect) {
	for _, l := range ls {
		ref := "reference"
		if l.Expected != nil {
			ref = fmt.Sprintf("clean round %d", *l.Expected)
		}
		t.line("  %s %s %s", t.st.Muted.Render("local"), t.st.Code.Render(l.Query), t.st.Muted.Render(fmt.Sprintf("→ %d (%s)", l.Count, ref)))
	}
}

// stderrTails shows the end of stderr of attempts that failed on their own
// (not the ones idemcheck killed on purpose).
func (t *textWriter) stderrTails(r Round) {
	for _, a := range r.Attempts {
		if a.Outcome == OutcomeAcked || a.Outcome == OutcomeKilled {
			continue
		}
		out := a.Stderr
		what := "stderr"
		if strings.TrimSpace(out) == "" {
			out, what = a.Stdout, "stdout"
		}
		lines := tailLines(out, stderrTailLines)
		if len(lines) == 0 {
			continue
		}
		t.line("  %s", t.st.Muted.Render(fmt.Sprintf("%s of %s %d attempt %d (last lines):", what, t.unit, a.Delivery, a.Index)))
		for _, l := range lines {
			t.line("    %s %s", t.st.Muted.Render("|"), l)
		}
	}
}

func tailLines(s string, n int) []string {
	s = strings.TrimRight(s, "\n")
	if strings.TrimSpace(s) == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if len(l) > 200 {
			l = l[:200] + "…"
		}
		lines[i] = procgroup.Printable(l)
	}
	return lines
}

func maxDelivery(r Round) int {
	m := 0
	for _, a := range r.Attempts {
		m = max(m, a.Delivery)
	}
	return m
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func hasCleanRound(rep *Report) bool {
	for _, r := range rep.Rounds {
		if r.KillPoint == KillNone {
			return true
		}
	}
	return false
}
