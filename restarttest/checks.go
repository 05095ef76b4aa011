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

// expectation is what a round is judged against: what the clean round did.
type expectation struct {
	endpoints []string // endpoints the clean round called
	reference bool     // this is the clean round: its counts are the reference
	// secondSend explains a second key in a round where the message is
	// sent twice as two messages (resend, respell): what changed.
	secondSend string
	// renewed are the envelope fields the round's second send carried
	// with fresh values (resend, respell): a key that carries them shows
	// its cause.
	renewed []EnvelopeChange
	// forgot: a provider-forgets round, where the provider forgot its
	// keys between the two deliveries.
	forgot  bool
	learned bool // a clean round ran before: endpoints is what it called
	// killLanded is set when the round's kill point was reached.
	killLanded bool
	// drifted are endpoints whose key changed between the attempts of an
	// earlier round: in a resend or respell round that, not what changed
	// between the sends, explains a second key.
	drifted map[string]bool
	// concurrent is set in a concurrent:N round; steady are the endpoints
	// that kept one key across a redelivery in an earlier round.
	concurrent bool
	steady     map[string]bool
	// oneMessage: the round's copies are one message (concurrent:N+KILL),
	// acknowledged when any copy is.
	oneMessage bool
	// tenants: a second-tenant round, whose two deliveries are two
	// tenants' operations, each to happen once.
	tenants bool
	// idsKept: the round's second message carries the first's own ids,
	// since the message has no envelope field the harness knows to renew.
	idsKept bool
}

// operations is how many business operations the round's deliveries are:
// two in a second-tenant round, one otherwise.
func (exp expectation) operations() int {
	if exp.tenants {
		return 2
	}
	return 1
}

// driftReason explains why an endpoint got more than one key in a round:
// what changed between the sends in a resend or respell round, a race when
// only concurrent deliveries drew their own keys, else what the keys show
// (driftcause.go).
func (exp expectation) driftReason(endpoint string, keys []string) string {
	if why := exp.secondSendCause(endpoint, keys); why != "" {
		return why
	}
	return driftCause(keys, exp.concurrent && exp.steady[endpoint] && !exp.drifted[endpoint])
}

// secondSendCause explains a second key by what the round's second send
// changed: the envelope field the keys carry, else the round's reason;
// "" when the endpoint drifted in an earlier round anyway, or the round
// sends once.
func (exp expectation) secondSendCause(endpoint string, keys []string) string {
	if exp.secondSend == "" || exp.drifted[endpoint] {
		return ""
	}
	if why := keysCarryRenewed(keys, exp.renewed); why != "" {
		return why
	}
	return exp.secondSend
}

// runChecks judges a round. Each endpoint the clean round called must see
// its effect exactly once here too, and each --effect-sql count must equal
// the clean round's.
func runChecks(r *Round, exp expectation) []Check {
	if exp.tenants {
		return []Check{
			checkKeyPresent(r),
			perTenant(r, func(t *Round) Check { return checkKeyStable(t, exp) }),
			perTenant(r, checkPayloadFrozen),
			checkTenantsApart(r, exp),
			checkAcked(r, false),
		}
	}
	return []Check{
		checkKeyPresent(r),
		checkKeyStable(r, exp),
		checkPayloadFrozen(r),
		checkEffectOnce(r, exp),
		checkAcked(r, exp.oneMessage),
	}
}

func passed(name string) Check { return Check{Name: name, Passed: true, Applicable: true} }

// notApplicable is a check that had nothing to look at: it neither passed
// nor failed.
func notApplicable(name, why string) Check {
	return Check{Name: name, Detail: why}
}

// failed is a check that found findings; its detail lists them all.
func failed(name string, fs []finding) Check {
	texts := make([]string, len(fs))
	for i, f := range fs {
		texts[i] = f.text
	}
	return Check{Name: name, Applicable: true, Detail: strings.Join(texts, "; "), findings: fs}
}

func checkKeyPresent(r *Round) Check {
	if len(r.EffectRequests) == 0 {
		return notApplicable(CheckKeyPresent, "no effect request in this round")
	}
	missing := map[string]int{}
	for _, q := range r.EffectRequests {
		if q.IdempotencyKey == "" {
			missing[q.Endpoint]++
		}
	}
	var fs []finding
	for _, e := range slices.Sorted(maps.Keys(missing)) {
		fs = append(fs, finding{severity: sevKeyMissing, subject: e,
			text: fmt.Sprintf("%s: %d request(s) without Idempotency-Key", e, missing[e])})
	}
	if len(fs) > 0 {
		return failed(CheckKeyPresent, fs)
	}
	return passed(CheckKeyPresent)
}

func checkKeyStable(r *Round, exp expectation) Check {
	keyed := map[string]int{}
	for _, q := range r.EffectRequests {
		if q.IdempotencyKey != "" {
			keyed[q.Endpoint]++
		}
	}
	if !slices.ContainsFunc(slices.Collect(maps.Values(keyed)), func(n int) bool { return n > 1 }) {
		return notApplicable(CheckKeyStable, "no endpoint got a key twice: nothing to compare")
	}
	var fs []finding
	for _, t := range r.Effects {
		if len(t.Keys) > 1 {
			why := exp.driftReason(t.Endpoint, t.Keys)
			shown := why
			if why == drawnInAttempt {
				shown += clockBucketHint(r, t.Endpoint, t.Keys) // not in the subject: rounds still group by cause
			}
			fs = append(fs, finding{severity: sevKeyDrift, subject: t.Endpoint + why, endpoint: t.Endpoint, cause: why,
				text:     fmt.Sprintf("%s: %d different keys (%s): %s", t.Endpoint, len(t.Keys), shortKeys(t.Keys), shown),
				headline: fmt.Sprintf("%s (%s: %d different keys %s)", shown, t.Endpoint, len(t.Keys), shortKeys(t.Keys))})
		}
	}
	if len(fs) > 0 {
		return failed(CheckKeyStable, fs)
	}
	return passed(CheckKeyStable)
}

// clockBucketHint adds, to a key drawn in the attempt whose keys show
// nothing readable, that a clock reading hashed or bucketed into the key
// (a minute, an hour) changes it too when the requests were ten seconds or
// more apart (--backoff 61s); "" when they were closer, as a handler's
// restart under load can put seconds between them.
func clockBucketHint(r *Round, endpoint string, keys []string) string {
	first := map[string]int64{}
	for _, q := range r.EffectRequests {
		if _, seen := first[q.IdempotencyKey]; q.Endpoint == endpoint && !seen {
			first[q.IdempotencyKey] = q.AtMS
		}
	}
	a, okA := first[keys[0]]
	b, okB := first[keys[1]]
	if !okA || !okB || b-a < 10_000 {
		return ""
	}
	return fmt.Sprintf(" (random, or a clock reading hashed or bucketed into it: the requests came %.1fs apart)", float64(b-a)/1000)
}

// resendExplanation is why a re-sent message got a second key.
const resendExplanation = "the key follows the transport's message id"

// forgetsExplanation is why the effect happened again under the same key
// once the provider forgot it: only the provider's memory had stopped it.
const forgetsExplanation = "the provider had forgotten the key, as real providers do (Stripe after 24 h), and the handler called it again instead of finding the effect in its own records; " +
	"this design needs the provider to keep keys for as long as the message can be redelivered (every retry, redelivery and re-send horizon): record the outcome before acknowledging and check it before calling"

func checkPayloadFrozen(r *Round) Check {
	requests := map[string]int{}
	bodies := map[string][]string{}
	conflicts := map[string]int{}
	for _, q := range r.EffectRequests {
		requests[q.Endpoint]++
		fp := fingerprint([]byte(q.Body))
		if !slices.Contains(bodies[q.Endpoint], fp) {
			bodies[q.Endpoint] = append(bodies[q.Endpoint], fp)
		}
		if q.Result == ResultConflict {
			conflicts[q.Endpoint]++
		}
	}
	if !slices.ContainsFunc(slices.Collect(maps.Values(requests)), func(n int) bool { return n > 1 }) {
		return notApplicable(CheckPayloadFrozen, "no endpoint got two requests: nothing to compare")
	}
	var fs []finding
	for _, t := range r.Effects {
		if n := len(bodies[t.Endpoint]); n > 1 {
			fs = append(fs, finding{severity: sevPayloadDrift, subject: t.Endpoint,
				text: fmt.Sprintf("%s: %d different bodies: the payload changed between attempts", t.Endpoint, n)})
		}
		if n := conflicts[t.Endpoint]; n > 0 {
			fs = append(fs, finding{severity: sevPayloadDrift, subject: t.Endpoint + " 422",
				text: fmt.Sprintf("%s: provider answered 422 %d time(s): same key, different body", t.Endpoint, n)})
		}
	}
	if len(fs) > 0 {
		return failed(CheckPayloadFrozen, fs)
	}
	return passed(CheckPayloadFrozen)
}

func checkEffectOnce(r *Round, exp expectation) Check {
	endpoints := append([]string(nil), exp.endpoints...)
	for _, t := range r.Effects {
		if !slices.Contains(endpoints, t.Endpoint) {
			endpoints = append(endpoints, t.Endpoint)
		}
	}
	judgesLocal := len(r.LocalEffects) > 0 && !exp.reference
	if len(endpoints) == 0 && !judgesLocal && exp.killLanded && !exp.learned {
		// No clean round to learn from, and the handler killed on its way
		// never made its effect request.
		return failed(CheckEffectOnce, []finding{{severity: sevLost, subject: "effect",
			text: "lost effect (0 effects: no effect request reached the provider)"}})
	}
	if len(endpoints) == 0 && !judgesLocal {
		if len(r.LocalEffects) > 0 {
			return notApplicable(CheckEffectOnce, "no effect request; the --effect-sql counts of this round are the reference")
		}
		return notApplicable(CheckEffectOnce, "no effect request and no --effect-sql: nothing to count")
	}
	fs := providerEffects(r, endpoints, exp)
	if judgesLocal {
		fs = append(fs, localEffects(r.LocalEffects)...)
	}
	if len(fs) > 0 {
		return failed(CheckEffectOnce, fs)
	}
	return passed(CheckEffectOnce)
}

// lossCause says why an effect was lost when the attempts show it: a later
// attempt acknowledged the message without a request to the endpoint after
// one that did not finish (killed, failed, timed out), so it took what that
// one left (an intent row written as started) for done. "" when the
// attempts show nothing more.
func lossCause(r *Round, endpoint string) string {
	for _, q := range r.EffectRequests {
		if q.Delivery == 0 || q.Attempt == 0 {
			return "" // a request not pinned to its attempt: the attempts cannot tell
		}
	}
	unfinished := false
	for _, a := range r.Attempts {
		switch {
		case a.Outcome != OutcomeAcked:
			// Killed, failed or timed out, having written: it may have
			// left an intent behind.
			unfinished = unfinished || a.Writes > 0
		case unfinished && !requested(r, endpoint, a):
			return "an attempt after an unfinished one acknowledged the message without a request, " +
				"taking what that attempt left (a started intent) for done; only a completed intent is done, and an unfinished one must be resumed"
		}
	}
	return ""
}

// requested reports whether attempt a made a request to endpoint.
func requested(r *Round, endpoint string, a Attempt) bool {
	for _, q := range r.EffectRequests {
		if q.Endpoint == endpoint && q.Delivery == a.Delivery && q.Attempt == a.Index {
			return true
		}
	}
	return false
}

// providerEffects finds the endpoints whose effect did not happen exactly
// once.
func providerEffects(r *Round, endpoints []string, exp expectation) []finding {
	executed := map[string]EndpointTally{}
	for _, t := range r.Effects {
		executed[t.Endpoint] = t
	}
	var fs []finding
	for _, e := range endpoints {
		t := executed[e]
		noun := effectNoun(e)
		switch {
		case t.Executed == 0:
			text := fmt.Sprintf("lost %s (0 effects at %s)", noun, e)
			if why := lossCause(r, e); why != "" {
				text += ": " + why
			}
			fs = append(fs, finding{severity: sevLost, subject: e, text: text})
		case t.Executed > 1:
			text := fmt.Sprintf("duplicated %s (%d effects, %s%s)", noun, t.Executed, executedKeys(r, e), amountText(t.Amounts))
			cause := ""
			if why := exp.secondSendCause(e, t.Keys); why != "" && len(t.Keys) > 1 {
				text += ": " + why
				cause = why
			}
			if exp.forgot && len(t.Keys) == 1 {
				text += ": " + forgetsExplanation
			}
			fs = append(fs, finding{severity: sevDuplicated, subject: e, text: text, endpoint: e, cause: cause})
		}
	}
	return fs
}

// localEffects compares each --effect-sql count with the clean round's.
func localEffects(local []LocalEffect) []finding {
	var fs []finding
	for _, l := range local {
		if l.Expected == nil {
			continue
		}
		want := *l.Expected
		switch {
		case l.Count > want:
			fs = append(fs, finding{severity: sevDuplicated, subject: "sql " + l.Query,
				text: fmt.Sprintf("duplicated local effect (%s counted %d, the clean round %d)", l.Query, l.Count, want)})
		case l.Count < want:
			fs = append(fs, finding{severity: sevLost, subject: "sql " + l.Query,
				text: fmt.Sprintf("lost local effect (%s counted %d, the clean round %d)", l.Query, l.Count, want)})
		}
	}
	return fs
}

// checkAcked: every delivery's last attempt was acknowledged; in a round
// whose copies are one message, one copy's acknowledgement is the
// message's.
func checkAcked(r *Round, oneMessage bool) Check {
	last := map[int]Attempt{}
	for _, a := range r.Attempts {
		if prev, ok := last[a.Delivery]; !ok || a.Index > prev.Index {
			last[a.Delivery] = a
		}
		if oneMessage && a.Acked() {
			return passed(CheckAcked)
		}
	}
	var fs []finding
	for _, d := range slices.Sorted(maps.Keys(last)) {
		a := last[d]
		if a.Acked() {
			continue
		}
		fs = append(fs, finding{severity: sevNotAcked,
			text:     fmt.Sprintf("delivery %d not acknowledged after %d attempt(s) (last: %s)", d, a.Index, describeOutcome(a)),
			headline: fmt.Sprintf("not acknowledged (delivery %d after %d attempt(s), last: %s)", d, a.Index, describeOutcome(a))})
	}
	if len(fs) > 0 {
		return failed(CheckAcked, fs)
	}
	return passed(CheckAcked)
}

// allPassed reports whether every check that had something to look at
// passed.
func allPassed(cs []Check) bool {
	for _, c := range cs {
		if c.Applicable && !c.Passed {
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

// requestsPerAttempt is the most effect requests any one attempt sent.
func requestsPerAttempt(reqs []EffectRequest) int {
	most := 0
	for _, r := range reqs {
		most = max(most, r.AttemptRequest)
	}
	return most
}
