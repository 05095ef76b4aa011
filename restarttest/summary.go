package restarttest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severities of findings, the most serious first: the summary names them in
// this order.
const (
	sevDuplicated = iota
	sevLost
	sevKeyDrift
	sevInFlight
	sevClientScoped
	sevMismatch
	sevReplay
	sevPayloadDrift
	sevKeyMissing
	sevKeyRequired
	sevNotAcked
)

// contractSeverity ranks the Idempotency-Key contract's checks (--client-key),
// which state their failure in their detail.
var contractSeverity = map[string]int{
	CheckInFlightConflict: sevInFlight,
	CheckClientScoped:     sevClientScoped,
	CheckMismatchRejected: sevMismatch,
	CheckReplayIdentical:  sevReplay,
	CheckKeyRequired:      sevKeyRequired,
}

// findingsOf are a check's findings; a failed check that states its
// failure only in its detail is one finding.
func findingsOf(c Check) []finding {
	if len(c.findings) > 0 || !c.Failed() {
		return c.findings
	}
	sev, ok := contractSeverity[c.Name]
	if !ok {
		sev = sevNotAcked
	}
	return []finding{{severity: sev, subject: c.Name, text: c.Detail}}
}

// finding is one failure a check saw. subject tells failures of one
// severity apart (an endpoint, an --effect-sql query), so the summary names
// each distinct failure once.
type finding struct {
	severity int
	subject  string
	text     string // in the check's detail
	headline string // in the summary, when it reads better than text there
	// cause is why an endpoint's keys drifted, when the text states it; a
	// duplicate that states the same cause makes the drift's own entry in
	// the summary a repetition.
	endpoint, cause string
}

func (f finding) summaryText() string {
	if f.headline != "" {
		return f.headline
	}
	return f.text
}

// summaryEntry is one distinct failure of the run and the rounds it was
// seen in.
type summaryEntry struct {
	finding
	order  int
	rounds []string
}

// finishReport computes the verdict and the summary line: how many rounds
// failed, then every distinct failure once, the most serious first, with
// the rounds that showed it.
func finishReport(rep *Report) {
	rep.RoundsTotal = len(rep.Rounds)
	rep.RoundsFailed = 0
	for _, r := range rep.Rounds {
		if !r.Passed {
			rep.RoundsFailed++
		}
	}
	if why := untestedReasons(rep.Rounds); rep.RoundsFailed == 0 && why != "" {
		// Passing there would be unearned: nothing was killed, or no
		// copies raced.
		rep.Verdict = VerdictIncomplete
		rep.Summary = fmt.Sprintf("INCOMPLETE: %d/%d rounds passed, but %s", rep.RoundsTotal, rep.RoundsTotal, why)
		return
	}
	if rep.RoundsFailed == 0 {
		rep.Verdict = VerdictPass
		rep.Summary = fmt.Sprintf("PASS %d/%d rounds: the effect happened exactly once at every kill point", rep.RoundsTotal, rep.RoundsTotal)
		return
	}
	rep.Verdict = VerdictFail
	rep.Summary = fmt.Sprintf("FAIL %d/%d rounds: %s", rep.RoundsFailed, rep.RoundsTotal, failureReasons(rep.Rounds))
}

// untestedReasons says which rounds tested nothing and why (a kill point
// never reached, copies that never raced); "" when every round tested
// what it names.
func untestedReasons(rounds []Round) string {
	var unreached, unraced []string
	var raceWhy string
	for _, r := range rounds {
		switch {
		case r.KillNotReached():
			unreached = append(unreached, fmt.Sprintf("round %d (%s)", r.Index, r.KillPoint))
		case r.RaceNotRun != "":
			unraced = append(unraced, fmt.Sprintf("round %d (%s)", r.Index, r.KillPoint))
			raceWhy = r.RaceNotRun
		}
	}
	var why []string
	if len(unreached) > 0 {
		why = append(why, fmt.Sprintf("the kill point of %s was never reached, so no restart was tested there; choose kill points the handler reaches (the clean round, --kill-at none, shows its writes and effect requests)",
			strings.Join(unreached, ", ")))
	}
	if len(unraced) > 0 {
		why = append(why, fmt.Sprintf("in %s %s", strings.Join(unraced, ", "), raceWhy))
	}
	return strings.Join(why, "; and ")
}

// failureReasons is every distinct failure of the rounds once, the most
// serious first, with the rounds that showed it.
func failureReasons(rounds []Round) string {
	var reasons []string
	for _, e := range distinctFailures(rounds) {
		reasons = append(reasons, e.summaryText()+" "+roundList(e.rounds))
	}
	return strings.Join(reasons, "; ")
}

// distinctFailures groups the findings of all rounds by severity and
// subject, keeping the first wording of each.
func distinctFailures(rounds []Round) []*summaryEntry {
	byKey := map[string]*summaryEntry{}
	var out []*summaryEntry
	for _, r := range rounds {
		for _, c := range r.Checks {
			for _, f := range findingsOf(c) {
				key := fmt.Sprintf("%d\x00%s", f.severity, f.subject)
				e := byKey[key]
				if e == nil {
					e = &summaryEntry{finding: f, order: len(out)}
					byKey[key] = e
					out = append(out, e)
				}
				if !slices.Contains(e.rounds, r.KillPoint) {
					e.rounds = append(e.rounds, r.KillPoint)
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *summaryEntry) int {
		return cmp.Or(cmp.Compare(a.severity, b.severity), cmp.Compare(a.order, b.order))
	})
	all := slices.Clone(out)
	return slices.DeleteFunc(out, func(e *summaryEntry) bool { return statedBefore(e, all) })
}

// statedBefore reports a key drift whose cause a duplicate of the same
// endpoint already states, in every round the drift was seen in.
func statedBefore(e *summaryEntry, all []*summaryEntry) bool {
	if e.severity != sevKeyDrift || e.cause == "" {
		return false
	}
	return slices.ContainsFunc(all, func(d *summaryEntry) bool {
		return d.severity == sevDuplicated && d.endpoint == e.endpoint && d.cause == e.cause &&
			!slices.ContainsFunc(e.rounds, func(r string) bool { return !slices.Contains(d.rounds, r) })
	})
}

func roundList(kps []string) string {
	named := make([]string, len(kps))
	for i, kp := range kps {
		named[i] = kp
		if kp == KillNone {
			named[i] = "the clean round" // round none read as no round
		}
	}
	if len(kps) == 1 {
		if kps[0] == KillNone {
			return "in the clean round"
		}
		return "in round " + kps[0]
	}
	return "in rounds " + strings.Join(named, ", ")
}
