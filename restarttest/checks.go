package restarttest

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
)

// tally groups a round's effect requests by endpoint.
func tally(reqs []EffectRequest) []EndpointTally {
	byEndpoint := map[string]*EndpointTally{}
	var order []string
	for _, r := range reqs {
		t := byEndpoint[r.Endpoint]
		if t == nil {
			t = &EndpointTally{Endpoint: r.Endpoint, Keys: []string{}, Amounts: []string{}}
			byEndpoint[r.Endpoint] = t
			order = append(order, r.Endpoint)
		}
		t.Requests++
		if r.IdempotencyKey != "" && !slices.Contains(t.Keys, r.IdempotencyKey) {
			t.Keys = append(t.Keys, r.IdempotencyKey)
		}
		if r.Result == ResultExecuted {
			t.Executed++
			t.Amounts = append(t.Amounts, r.Amount)
		}
	}
	out := make([]EndpointTally, 0, len(order))
	for _, e := range order {
		out = append(out, *byEndpoint[e])
	}
	return out
}

func endpointsOf(reqs []EffectRequest) []string {
	var out []string
	for _, r := range reqs {
		if !slices.Contains(out, r.Endpoint) {
			out = append(out, r.Endpoint)
		}
	}
	sort.Strings(out)
	return out
}

// runChecks judges a round. expected are the endpoints the clean round
// called: each must see its effect exactly once here too.
func runChecks(r *Round, expected []string) []Check {
	return []Check{
		checkKeyPresent(r),
		checkKeyStable(r),
		checkPayloadFrozen(r),
		checkEffectOnce(r, expected),
		checkAcked(r),
	}
}

func checkKeyPresent(r *Round) Check {
	c := Check{Name: CheckKeyPresent, Passed: true}
	missing := map[string]int{}
	for _, q := range r.EffectRequests {
		if q.IdempotencyKey == "" {
			missing[q.Endpoint]++
		}
	}
	var parts []string
	for _, e := range slices.Sorted(maps.Keys(missing)) {
		parts = append(parts, fmt.Sprintf("%s: %d request(s) without Idempotency-Key", e, missing[e]))
	}
	if len(parts) > 0 {
		c.Passed, c.Detail = false, strings.Join(parts, "; ")
	}
	return c
}

func checkKeyStable(r *Round) Check {
	c := Check{Name: CheckKeyStable, Passed: true}
	var parts []string
	for _, t := range r.Effects {
		if len(t.Keys) > 1 {
			parts = append(parts, fmt.Sprintf("%s: %d different keys (%s): key drawn in the attempt", t.Endpoint, len(t.Keys), shortKeys(t.Keys)))
		}
	}
	if len(parts) > 0 {
		c.Passed, c.Detail = false, strings.Join(parts, "; ")
	}
	return c
}

func checkPayloadFrozen(r *Round) Check {
	c := Check{Name: CheckPayloadFrozen, Passed: true}
	bodies := map[string][]string{}
	conflicts := map[string]int{}
	for _, q := range r.EffectRequests {
		fp := fingerprint([]byte(q.Body))
		if !slices.Contains(bodies[q.Endpoint], fp) {
			bodies[q.Endpoint] = append(bodies[q.Endpoint], fp)
		}
		if q.Result == ResultConflict {
			conflicts[q.Endpoint]++
		}
	}
	var parts []string
	for _, t := range r.Effects {
		if n := len(bodies[t.Endpoint]); n > 1 {
			parts = append(parts, fmt.Sprintf("%s: %d different bodies: the payload changed between attempts", t.Endpoint, n))
		}
		if n := conflicts[t.Endpoint]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s: provider answered 422 %d time(s): same key, different body", t.Endpoint, n))
		}
	}
	if len(parts) > 0 {
		c.Passed, c.Detail = false, strings.Join(parts, "; ")
	}
	return c
}

func checkEffectOnce(r *Round, expected []string) Check {
	c := Check{Name: CheckEffectOnce, Passed: true}
	executed := map[string]EndpointTally{}
	for _, t := range r.Effects {
		executed[t.Endpoint] = t
	}
	endpoints := append([]string(nil), expected...)
	for _, t := range r.Effects {
		if !slices.Contains(endpoints, t.Endpoint) {
			endpoints = append(endpoints, t.Endpoint)
		}
	}
	if len(endpoints) == 0 {
		c.Passed, c.Detail = false, "lost effect (0 effects: no effect request reached the provider)"
		return c
	}
	var parts []string
	for _, e := range endpoints {
		t := executed[e]
		noun := effectNoun(e)
		switch {
		case t.Executed == 0:
			parts = append(parts, fmt.Sprintf("lost %s (0 effects at %s)", noun, e))
		case t.Executed > 1:
			parts = append(parts, fmt.Sprintf("duplicated %s (%d effects, %s%s)", noun, t.Executed, executedKeys(r, e), amountText(t.Amounts)))
		}
	}
	if len(parts) > 0 {
		c.Passed, c.Detail = false, strings.Join(parts, "; ")
	}
	return c
}

func checkAcked(r *Round) Check {
	c := Check{Name: CheckAcked, Passed: true}
	last := map[int]Attempt{}
	for _, a := range r.Attempts {
		if prev, ok := last[a.Delivery]; !ok || a.Index > prev.Index {
			last[a.Delivery] = a
		}
	}
	var parts []string
	for d := 1; d <= len(last); d++ {
		a, ok := last[d]
		if !ok || a.Acked() {
			continue
		}
		parts = append(parts, fmt.Sprintf("delivery %d not acknowledged after %d attempt(s) (last: %s)", d, a.Index, describeOutcome(a)))
	}
	if len(parts) > 0 {
		c.Passed, c.Detail = false, strings.Join(parts, "; ")
	}
	return c
}

func allPassed(cs []Check) bool {
	for _, c := range cs {
		if !c.Passed {
			return false
		}
	}
	return true
}

// describeOutcome says how an attempt ended, in a few words.
func describeOutcome(a Attempt) string {
	if at := a.FaultAt; at != "" {
		a.FaultAt = ""
		return "commit reply dropped at " + at + ", then " + describeOutcome(a)
	}
	switch a.Outcome {
	case OutcomeAcked:
		if a.HTTPStatus != 0 {
			return fmt.Sprintf("HTTP %d, acked", a.HTTPStatus)
		}
		if a.ExitCode == nil {
			return "acked at the broker" // a consumer, stopped once the broker held nothing
		}
		return "exit 0, acked"
	case OutcomeKilled:
		return "killed at " + a.KilledAt
	case OutcomeTimeout:
		return "timed out, killed"
	case OutcomeError:
		return a.Error
	}
	switch {
	case a.HTTPStatus != 0:
		return fmt.Sprintf("HTTP %d", a.HTTPStatus)
	case a.Error != "":
		return a.Error
	case a.Signal != "":
		return "ended by " + a.Signal
	case a.ExitCode != nil:
		return fmt.Sprintf("exit %d", *a.ExitCode)
	}
	return a.Outcome
}

// effectNoun names the effect after the endpoint: POST /v1/charges → charge.
func effectNoun(endpoint string) string {
	_, p, _ := strings.Cut(endpoint, " ")
	base := path.Base(strings.TrimRight(p, "/"))
	if base == "" || base == "." || base == "/" || strings.IndexFunc(base, func(r rune) bool { return r >= '0' && r <= '9' }) == 0 {
		return "effect"
	}
	base = strings.ReplaceAll(base, "_", " ")
	base = strings.ReplaceAll(base, "-", " ")
	if strings.HasSuffix(base, "s") && !strings.HasSuffix(base, "ss") {
		base = strings.TrimSuffix(base, "s")
	}
	return base
}

func executedKeys(r *Round, endpoint string) string {
	var keys []string
	noKey := false
	for _, q := range r.EffectRequests {
		if q.Endpoint != endpoint || q.Result != ResultExecuted {
			continue
		}
		if q.IdempotencyKey == "" {
			noKey = true
		} else if !slices.Contains(keys, q.IdempotencyKey) {
			keys = append(keys, q.IdempotencyKey)
		}
	}
	switch {
	case len(keys) == 0:
		return "no Idempotency-Key"
	case len(keys) == 1 && !noKey:
		return "key " + ShortKey(keys[0])
	}
	s := "keys " + shortKeys(keys)
	if noKey {
		s += " and none"
	}
	return s
}

func amountText(amounts []string) string {
	var distinct []string
	for _, a := range amounts {
		if a != "" && !slices.Contains(distinct, a) {
			distinct = append(distinct, a)
		}
	}
	switch {
	case len(distinct) == 0:
		return ""
	case len(distinct) == 1:
		return ", amount " + distinct[0] + " each"
	}
	return ", amounts " + strings.Join(amounts, ", ")
}

// ShortKey shortens a key for display: its first four characters and "…".
func ShortKey(k string) string {
	if len([]rune(k)) <= 8 {
		return k
	}
	return string([]rune(k)[:4]) + "…"
}

// shortKeys shortens keys for display, keeping each prefix long enough to
// tell the keys apart (time-based keys share long prefixes).
func shortKeys(keys []string) string {
	n := shortKeyLen(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = shortKeyN(k, n)
	}
	return strings.Join(out, ", ")
}

func shortKeyN(k string, n int) string {
	if len([]rune(k)) > n {
		return prefix(k, n) + "…"
	}
	return k
}

// shortKeyLen is the shortest prefix length (at least 4) that tells keys
// apart.
func shortKeyLen(keys []string) int {
	n := 4
	for ; n < 64; n++ {
		seen := map[string]bool{}
		distinct := true
		for _, k := range keys {
			p := prefix(k, n)
			if seen[p] {
				distinct = false
				break
			}
			seen[p] = true
		}
		if distinct {
			break
		}
	}
	return n
}

func prefix(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// finishReport computes the verdict and the summary line: the failed rounds
// and each kind of failure once, the most serious first.
func finishReport(rep *Report) {
	rep.RoundsTotal = len(rep.Rounds)
	first := map[int]string{} // severity → first headline of that kind
	for _, r := range rep.Rounds {
		if r.Passed {
			continue
		}
		rep.RoundsFailed++
		sev, text := headline(r)
		if _, ok := first[sev]; !ok {
			first[sev] = text
		}
	}
	if rep.RoundsFailed == 0 {
		rep.Verdict = VerdictPass
		rep.Summary = fmt.Sprintf("PASS %d/%d rounds: the effect happened exactly once at every kill point", rep.RoundsTotal, rep.RoundsTotal)
		return
	}
	rep.Verdict = VerdictFail
	var reasons []string
	for sev := 0; sev < len(severityOrder)+1; sev++ {
		if text, ok := first[sev]; ok {
			reasons = append(reasons, text)
		}
	}
	rep.Summary = fmt.Sprintf("FAIL %d/%d rounds: %s", rep.RoundsFailed, rep.RoundsTotal, strings.Join(reasons, "; "))
}

// severityOrder ranks failures: a duplicated or lost effect first.
var severityOrder = []string{"duplicated", "lost", CheckKeyStable, CheckInFlightConflict, CheckClientScoped, CheckMismatchRejected,
	CheckReplayIdentical, CheckPayloadFrozen, CheckKeyPresent, CheckKeyRequired, CheckAcked}

// headline is the most serious failure of a round, with its severity.
func headline(r Round) (int, string) {
	byName := map[string]Check{}
	for _, c := range r.Checks {
		byName[c.Name] = c
	}
	if c := byName[CheckEffectOnce]; !c.Passed && c.Name != "" {
		detail, _, _ := strings.Cut(c.Detail, "; ")
		if strings.HasPrefix(detail, "duplicated") {
			return 0, detail
		}
		// Nothing acknowledged and nothing charged: the handler failing is
		// the news, the lost effect its consequence.
		if acked := byName[CheckAcked]; acked.Name != "" && !acked.Passed {
			first, _, _ := strings.Cut(acked.Detail, "; ")
			return 1, notAcknowledged(first)
		}
		return 1, detail
	}
	for sev := 2; sev < len(severityOrder); sev++ {
		name := severityOrder[sev]
		c, ok := byName[name]
		if !ok || c.Passed {
			continue
		}
		detail, _, _ := strings.Cut(c.Detail, "; ")
		switch name {
		case CheckKeyStable:
			return sev, "key drawn in the attempt (" + strings.TrimSuffix(detail, ": key drawn in the attempt") + ")"
		case CheckAcked:
			if text := notAcknowledged(detail); text == detail {
				return 1, text // a stuck key: as serious as the loss it causes
			}
			return sev, notAcknowledged(detail)
		}
		return sev, detail
	}
	return len(severityOrder), "failed"
}

// notAcknowledged is the summary of an acked failure; a key stuck in
// processing is named as such, not as a bare "not acknowledged".
func notAcknowledged(detail string) string {
	if strings.HasPrefix(detail, "key ") && strings.Contains(detail, "stuck in processing") {
		return detail
	}
	return "not acknowledged (" + detail + ")"
}
