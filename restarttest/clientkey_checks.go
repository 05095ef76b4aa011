package restarttest

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/idemcheck/idemcheck/internal/english"
)

// judge adds the contract's checks to the round, each only where it
// applies: replay-identical wherever a request completed, mismatch-rejected,
// key-required and client-scoped in the clean round, in-flight-conflict in
// rounds that send the key twice at once.
func (t *clientKeyTransport) judge(ctx context.Context, rs *roundState, r *Round) error {
	t.mu.Lock()
	cr := t.cur
	t.mu.Unlock()
	if cr == nil {
		return nil
	}
	r.Probes = append(r.Probes, cr.probes...)
	markStuckKey(r, cr.key)
	replay, ok := checkReplayIdentical(r)
	if !ok {
		replay = notApplicable(CheckReplayIdentical, "the request never completed in this round: no answer to repeat")
	}
	if rs.kp.Kind == KillConcurrent {
		p, hold := t.probeInFlight(ctx, rs.kp.N-1)
		if err := ctx.Err(); err != nil {
			return err
		}
		r.Probes = append(r.Probes, p)
		cr.hold = hold
	}
	r.Checks = append(r.Checks, replay, t.inFlightCheck(cr))
	clean := rs.kp.Kind == KillNone
	stored, completed := firstCompletedOf(r.Attempts)
	mismatch := notApplicable(CheckMismatchRejected, "sent in the clean round")
	if p, ok := probeNamed(r, ProbeMismatch); ok {
		mismatch = checkMismatchRejected(p, stored)
	} else if clean {
		mismatch.Detail = "not sent: the request did not complete with a 2xx, or the message has no JSON field to change"
	}
	required := notApplicable(CheckKeyRequired, "sent in the clean round with --require-key")
	if p, ok := probeNamed(r, ProbeNoKey); ok {
		required = checkKeyRequired(p)
	}
	scoped := notApplicable(CheckClientScoped, "sent in the clean round with two --client-header")
	if clean && len(t.clients) >= 2 && completed && stored.HTTPStatus/100 == 2 {
		p := t.probeOtherClient(ctx, cr.key)
		if err := ctx.Err(); err != nil {
			return err
		}
		r.Probes = append(r.Probes, p)
		scoped = checkClientScoped(p, stored, len(r.EffectRequests) > 0)
	}
	r.Checks = append(r.Checks, mismatch, required, scoped)
	return nil
}

// inFlightCheck is in-flight-conflict where the in-flight probe sent a key
// again while its first request was held, not applicable elsewhere.
func (t *clientKeyTransport) inFlightCheck(cr *clientKeyRound) Check {
	switch {
	case cr.hold == nil:
		return notApplicable(CheckInFlightConflict, "tested in concurrent rounds")
	case !cr.hold.wasHeld():
		return notApplicable(CheckInFlightConflict, "the in-flight probe made no effect request to hold at the provider: the key could not be sent again while its first request was provably running")
	}
	return checkInFlight(cr.hold)
}

func probeNamed(r *Round, name string) (Probe, bool) {
	for _, p := range r.Probes {
		if p.Name == name {
			return p, true
		}
	}
	return Probe{}, false
}

func firstCompletedOf(attempts []Attempt) (Attempt, bool) {
	for _, a := range attempts {
		if a.HTTPStatus != 0 && (answer{status: a.HTTPStatus}).completed() {
			return a, true
		}
	}
	return Attempt{}, false
}

// checkReplayIdentical: once the request completed, every later answer to
// its key (a retry, the replay probe) is the stored one, status and body,
// JSON compared by value. Not applicable before anything completed.
func checkReplayIdentical(r *Round) (Check, bool) {
	stored, ok := firstCompletedOf(r.Attempts)
	if !ok {
		return Check{}, false
	}
	c := Check{Name: CheckReplayIdentical, Applicable: true, Passed: true}
	done := stored.StartMS + stored.DurationMS
	var parts []string
	for _, a := range r.Attempts {
		if a.StartMS < done || a == stored || a.HTTPStatus == 0 {
			continue
		}
		if d := answerDifference(a.HTTPStatus, a.Response, stored); d != "" {
			parts = append(parts, fmt.Sprintf("delivery %d attempt %d answered %s (first difference: %s)", a.Delivery, a.Index, answerText(a.HTTPStatus, a.Response), d))
			c.Difference = cmp.Or(c.Difference, d)
		}
	}
	if p, ok := probeNamed(r, ProbeReplay); ok && !sameAnswer(p.Status, p.Response, stored) {
		got := answerText(p.Status, p.Response)
		if p.Status == 0 {
			got = p.Error
		} else {
			d := answerDifference(p.Status, p.Response, stored)
			got += " (first difference: " + d + ")"
			c.Difference = cmp.Or(c.Difference, d)
		}
		parts = append(parts, "the replay answered "+got)
	}
	if len(parts) > 0 {
		c.Passed = false
		c.Detail = fmt.Sprintf("%s, but the request had completed with %s: a retry must get the stored response",
			strings.Join(parts, "; "), answerText(stored.HTTPStatus, stored.Response))
	}
	return c, true
}

// checkAnswersAgree is replay-identical for a plain POST: every delivery
// acknowledged in the round (a redelivery, a concurrent delivery) gets the
// answer the first acknowledged one got, status and body, JSON compared by
// value. A re-sent message is another request, and one answer has nothing
// to agree with.
func checkAnswersAgree(r *Round, resend bool) Check {
	if resend {
		return notApplicable(CheckReplayIdentical, "the re-sent message is another request: its answer may differ")
	}
	var acked []Attempt
	for _, a := range r.Attempts {
		if a.Acked() && a.HTTPStatus/100 == 2 {
			acked = append(acked, a)
		}
	}
	if len(acked) < 2 {
		return notApplicable(CheckReplayIdentical, "fewer than two acknowledged answers in this round: nothing to compare")
	}
	slices.SortStableFunc(acked, func(a, b Attempt) int { return cmp.Compare(a.StartMS+a.DurationMS, b.StartMS+b.DurationMS) })
	stored := acked[0]
	c := passed(CheckReplayIdentical)
	var parts []string
	for _, a := range acked[1:] {
		if d := answerDifference(a.HTTPStatus, a.Response, stored); d != "" {
			parts = append(parts, fmt.Sprintf("delivery %d attempt %d answered %s (first difference: %s)", a.Delivery, a.Index, answerText(a.HTTPStatus, a.Response), d))
			c.Difference = cmp.Or(c.Difference, d)
		}
	}
	if len(parts) > 0 {
		c.Passed = false
		c.Detail = fmt.Sprintf("%s, but delivery %d attempt %d had been answered %s: the same message must get the stored response",
			strings.Join(parts, "; "), stored.Delivery, stored.Index, answerText(stored.HTTPStatus, stored.Response))
	}
	return c
}

func sameAnswer(status int, body string, stored Attempt) bool {
	return status == stored.HTTPStatus && fingerprint([]byte(body)) == fingerprint([]byte(stored.Response))
}

// answerText is "200 {"id":"ord_1"…}", short enough for one line.
func answerText(status int, body string) string {
	body = strings.Join(strings.Fields(body), " ")
	if r := []rune(body); len(r) > 60 {
		body = string(r[:60]) + "…"
	}
	if body == "" {
		return fmt.Sprintf("%d (empty)", status)
	}
	return fmt.Sprintf("%d %s", status, body)
}

// checkMismatchRejected: the same key with one field changed is refused
// with a 4xx (422 by the draft), never executed, never answered with the
// stored success.
func checkMismatchRejected(p Probe, stored Attempt) Check {
	c := Check{Name: CheckMismatchRejected, Applicable: true, Passed: true}
	what := "the same key with " + p.Changed
	switch {
	case p.Status == 0:
		c.Detail = fmt.Sprintf("%s got no answer (%s): want 422", what, p.Error)
	case p.executed() > 0:
		c.Detail = fmt.Sprintf("%s was executed (%s reached the provider): want 422", what, english.Plural(p.executed(), "effect"))
	case p.Status/100 == 2 && sameAnswer(p.Status, p.Response, stored):
		c.Detail = fmt.Sprintf("%s got the stored response (%d): the request is not fingerprinted; want 422", what, p.Status)
	case p.Status/100 == 2:
		c.Detail = fmt.Sprintf("%s was answered %s: want 422", what, answerText(p.Status, p.Response))
	case p.Status == http.StatusConflict || p.Status/100 != 4:
		c.Detail = fmt.Sprintf("%s was answered %d with nothing in flight: want 422", what, p.Status)
	default:
		return c
	}
	c.Passed = false
	return c
}

// checkKeyRequired (--require-key): a request without the key header is
// refused with 400 and changes nothing.
func checkKeyRequired(p Probe) Check {
	c := Check{Name: CheckKeyRequired, Applicable: true, Passed: true}
	switch {
	case p.Status == 0:
		c.Detail = fmt.Sprintf("a request without the key got no answer (%s): want 400", p.Error)
	case p.executed() > 0:
		c.Detail = fmt.Sprintf("a request without the key was executed (%s reached the provider): want 400", english.Plural(p.executed(), "effect"))
	case p.Status != http.StatusBadRequest && p.Status != http.StatusPreconditionRequired:
		c.Detail = fmt.Sprintf("a request without the key was answered %s: want 400", answerText(p.Status, p.Response))
	case p.Writes > 0:
		c.Detail = fmt.Sprintf("a request without the key was refused with %d but committed %s", p.Status, english.Plural(p.Writes, "write"))
	default:
		return c
	}
	c.Passed = false
	return c
}

// checkClientScoped: the same key from another client is that client's own
// operation: it executes, and never gets the first client's stored
// response.
func checkClientScoped(p Probe, stored Attempt, hadEffects bool) Check {
	c := Check{Name: CheckClientScoped, Applicable: true, Passed: true}
	const what = "client 2 sent client 1's key and body"
	switch {
	case p.Status == 0:
		c.Detail = fmt.Sprintf("%s and got no answer (%s)", what, p.Error)
	case sameAnswer(p.Status, p.Response, stored):
		c.Detail = fmt.Sprintf("%s and got client 1's stored response (%d): keys are not scoped per client", what, p.Status)
	case p.Status/100 != 2:
		c.Detail = fmt.Sprintf("%s and was answered %s: keys are not scoped per client", what, answerText(p.Status, p.Response))
	case hadEffects && p.executed() == 0 && p.replayed() > 0:
		c.Detail = fmt.Sprintf("%s and was answered %d, but the provider replayed client 1's effect for it: the key the server sends on to the provider is not scoped per client, so client 2's operation never happens", what, p.Status)
	case hadEffects && p.executed() == 0:
		c.Detail = fmt.Sprintf("%s and was answered %d, but nothing was executed for it at the provider", what, p.Status)
	default:
		return c
	}
	c.Passed = false
	return c
}

// checkInFlight: while the first request with the key is held at the
// provider, the same key sent again is answered 409 (or waits), and never
// reaches the provider a second time.
func checkInFlight(h *inFlightHold) Check {
	c := Check{Name: CheckInFlightConflict, Applicable: true, Passed: true}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.heldSeq == 0 {
		c.Passed = false
		c.Detail = "no effect request to hold: the key could not be sent while its first request was provably running"
		return c
	}
	var parts []string
	if len(h.during) > 0 {
		parts = append(parts, fmt.Sprintf("the same key reached the provider %s while the first request was still running: no in-flight guard", english.Plural(len(h.during), "more time")))
	}
	for d := 2; d <= h.others+1; d++ {
		if status, ok := h.answers[d]; ok && status != http.StatusConflict {
			parts = append(parts, fmt.Sprintf("request %d was answered %d while the first request with its key was still running: want 409", d, status))
		}
	}
	if len(parts) > 0 {
		// Which of the concurrent round's two tests failed: this probe,
		// not the deliveries released together.
		c.Passed, c.Detail = false, "the in-flight probe: "+strings.Join(parts, "; ")
	}
	return c
}

// markStuckKey names a key the server keeps answering 409 after a kill:
// the crash left it in processing and nothing completes or expires it.
func markStuckKey(r *Round, key string) {
	for i, c := range r.Checks {
		if c.Name != CheckAcked || c.Passed {
			continue
		}
		retries := conflictsAfterKill(r.Attempts)
		if retries == 0 {
			return
		}
		r.Checks[i].Detail = fmt.Sprintf("key %s stuck in processing: the server never completes or expires it (409 on %s after the kill)", key, retryCount(retries))
		// As serious as the loss it causes.
		r.Checks[i].findings = []finding{{severity: sevLost, subject: "stuck " + key, text: r.Checks[i].Detail}}
		return
	}
}

// conflictsAfterKill counts the retries after the last kill when every one
// of them was answered 409; 0 otherwise.
func conflictsAfterKill(attempts []Attempt) int {
	n := -1 // no kill yet
	for _, a := range attempts {
		switch {
		case a.Outcome == OutcomeKilled:
			n = 0
		case n < 0:
		case a.HTTPStatus == http.StatusConflict:
			n++
		default:
			return 0
		}
	}
	return max(n, 0)
}

func retryCount(n int) string {
	switch n {
	case 1:
		return "the retry"
	case 2:
		return "both retries"
	}
	return fmt.Sprintf("all %d retries", n)
}
