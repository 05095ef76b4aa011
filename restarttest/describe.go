package restarttest

import (
	"fmt"
	"strings"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// The phrases below are the report's facts in words, shared by every
// presentation of a Report (textreport, htmlreport): the package itself
// renders no report.

// stderrTailLines is how much of a failed attempt's output a report shows.
const stderrTailLines = 6

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

// OutputTail is the end of what the attempt wrote, for a report: its
// stderr, else its stdout ("stderr" or "stdout" in what), at most a few
// lines, each printable and at most its last 200 bytes.
func (a Attempt) OutputTail() (what string, lines []string) {
	if lines := tailLines(a.Stderr, stderrTailLines); len(lines) > 0 {
		return "stderr", lines
	}
	return "stdout", tailLines(a.Stdout, stderrTailLines)
}

// DeliveryText says how the message reached the handler, for a report's
// header.
func (rep *Report) DeliveryText() string { return deliveryText(rep) }

// HasCleanRound reports whether the run had a round without a kill, whose
// learned figures a report's header shows.
func (rep *Report) HasCleanRound() bool {
	for _, r := range rep.Rounds {
		if r.KillPoint == KillNone {
			return true
		}
	}
	return false
}

// KillNotReached reports whether the round had a kill point that no attempt
// reached.
func (r Round) KillNotReached() bool {
	kp, _ := ParseKillPoint(r.KillPoint)
	return kp.kills() && !r.KillReached
}

// Untested says why the round could not test what it names: its kill point
// was never reached, or a concurrent round's copies never ran at once; ""
// when it did test it.
func (r Round) Untested() string {
	switch {
	case r.KillNotReached():
		return "kill point not reached"
	case r.RaceNotRun != "":
		return "the copies never ran at once"
	}
	return ""
}

// ShortKeys shortens each key to the shortest prefix that still tells the
// keys apart (time-based keys share long prefixes).
func ShortKeys(keys []string) map[string]string {
	n := shortKeyLen(keys)
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		out[k] = shortKeyN(k, n)
	}
	return out
}

// SendNotes say how a resend, respell or provider-forgets round's second
// delivery differed from the first. show writes each changed value (to
// shorten it); nil shows values in full.
func (r Round) SendNotes(show func(string) string) []string {
	if show == nil {
		show = func(s string) string { return s }
	}
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
	if kp.Kind == KillTenant {
		note = "delivery 2 is the same message for a second tenant, sent " + after
	}
	if parts := changeList(r.Resent, show); len(parts) > 0 {
		with := ", with fresh "
		if kp.Kind == KillTenant {
			with = ": "
		}
		note += with + strings.Join(parts, ", ")
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

// Executed is how many of the probe's effect requests the provider
// executed.
func (p Probe) Executed() int { return p.executed() }

// Answer is the probe's answer as the reports show it: the status and the
// start of the body, or why there was none.
func (p Probe) Answer() string {
	if p.Status == 0 {
		return p.Error
	}
	return answerText(p.Status, p.Response)
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
			// The end of a long line is kept: a message written after
			// unterminated output ends it ("…garbage panic: boom").
			l = "…" + l[len(l)-200:]
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

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
