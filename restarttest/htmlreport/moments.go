package htmlreport

import (
	"fmt"
	"slices"
	"sort"

	"github.com/idemcheck/idemcheck/restarttest"
)

// Event kinds, also the CSS classes of the table rows and the marks.
const (
	kindStart     = "start"
	kindRequest   = "request"
	kindCommit    = "commit"
	kindHold      = "hold"
	kindRelease   = "release"
	kindEnd       = "end"
	kindRoundOver = "round-over"
)

// kindOrder orders events at the same millisecond: what starts first, what
// ends last.
var kindOrder = map[string]int{kindStart: 0, kindHold: 1, kindRelease: 2, kindRequest: 3, kindCommit: 4, kindEnd: 5, kindRoundOver: 6}

// event is one moment of a round, a row of its table.
type event struct {
	ID     string // the row's anchor: round-2-request-1
	AtMS   int64
	Lane   string // the lane of the timeline it is drawn on
	Kind   string
	Class  string // the verdict colour: ok, bad, warn, muted
	Text   string
	Code   string // the key, in monospace
	Detail string
	Broken []checkView // the failing checks that broke here

	ref      string // what brokeAt points to: request:1, end:3, round
	withheld bool   // a request executed whose answer the kill withheld
}

// checkView is one check of a round.
type checkView struct {
	Name   string
	Mark   string // ✓ ✗ –
	Class  string // ok, bad, muted
	Detail string
	AtID   string // a failing check: the row where it broke
	AtMS   int64
}

// laneName names an attempt's lane.
func laneName(a restarttest.Attempt, byDelivery bool) string {
	if byDelivery {
		return fmt.Sprintf("delivery %d · attempt %d", a.Delivery, a.Index)
	}
	return fmt.Sprintf("attempt %d", a.Index)
}

const (
	laneProvider = "provider"
	laneDatabase = "database"
)

func rendezvousLane(rv restarttest.Rendezvous) string { return "rendezvous: " + rv.Point }

// attemptOf is the index in r.Attempts of the attempt that sent q, or -1.
func attemptOf(r restarttest.Round, q restarttest.EffectRequest) int {
	for i, a := range r.Attempts {
		if q.Delivery == a.Delivery && q.Attempt == a.Index {
			return i
		}
	}
	return -1
}

func byDelivery(r restarttest.Round) bool {
	return slices.ContainsFunc(r.Attempts, func(a restarttest.Attempt) bool { return a.Delivery > 1 })
}

// events lists the round's moments in time order.
func events(r restarttest.Round, short map[string]string) []event {
	multi := byDelivery(r)
	var out []event
	for i, a := range r.Attempts {
		lane := laneName(a, multi)
		start := "delivered"
		if a.Index > 1 {
			start = "redelivered"
		}
		out = append(out, event{AtMS: a.StartMS, Lane: lane, Kind: kindStart, Class: "muted", Text: start})
		out = append(out, endEvent(a, lane, i))
	}
	for _, q := range r.EffectRequests {
		lane := laneProvider
		if i := attemptOf(r, q); i >= 0 {
			lane = laneName(r.Attempts[i], multi)
		}
		key := short[q.IdempotencyKey]
		text := q.Endpoint + " key"
		if q.IdempotencyKey == "" {
			text, key = q.Endpoint+" without a key", ""
		}
		detail := "→ " + q.Answer()
		if q.Amount != "" {
			detail = "amount " + q.Amount + " " + detail
		}
		out = append(out, event{AtMS: q.AtMS, Lane: lane, Kind: kindRequest, Class: requestClass(q),
			Text: text, Code: key, Detail: detail, ref: fmt.Sprintf("request:%d", q.Seq), withheld: q.ResponseWithheld})
	}
	for i, at := range r.CommitsMS {
		out = append(out, event{AtMS: at, Lane: laneDatabase, Kind: kindCommit, Class: "muted",
			Text: fmt.Sprintf("write %d of the round committed", i+1)})
	}
	for _, rv := range r.Rendezvous {
		lane := rendezvousLane(rv)
		out = append(out, event{AtMS: rv.HeldMS, Lane: lane, Kind: kindHold, Class: "muted",
			Text: fmt.Sprintf("first delivery held at its %s, waiting for %d", rv.Point, rv.Deliveries)})
		release := event{AtMS: rv.HeldMS + rv.WaitedMS, Lane: lane, Kind: kindRelease, Class: "ok",
			Text: fmt.Sprintf("%d of %d deliveries released together after %dms", rv.Arrived, rv.Deliveries, rv.WaitedMS)}
		if !rv.Reached {
			release.Class = "warn"
			release.Text = fmt.Sprintf("released with %d of %d deliveries: %s", rv.Arrived, rv.Deliveries, rv.Note)
		}
		out = append(out, release)
	}
	out = append(out, event{AtMS: r.DurationMS, Lane: "round", Kind: kindRoundOver, Class: "muted",
		Text: "round over: the checks look at what happened", ref: "round"})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].AtMS != out[j].AtMS {
			return out[i].AtMS < out[j].AtMS
		}
		return kindOrder[out[i].Kind] < kindOrder[out[j].Kind]
	})
	for i := range out {
		out[i].ID = fmt.Sprintf("round-%d-event-%d", r.Index, i+1)
	}
	return out
}

func endEvent(a restarttest.Attempt, lane string, i int) event {
	e := event{AtMS: a.StartMS + a.DurationMS, Lane: lane, Kind: kindEnd, Text: a.Describe(), ref: fmt.Sprintf("end:%d", i)}
	switch a.Outcome {
	case restarttest.OutcomeAcked:
		e.Class = "ok"
	case restarttest.OutcomeKilled:
		e.Class = "kill"
	default:
		e.Class = "bad"
	}
	if a.Error != "" && a.Outcome != restarttest.OutcomeError {
		e.Detail = a.Error
	}
	return e
}

func requestClass(q restarttest.EffectRequest) string {
	switch q.Result {
	case restarttest.ResultExecuted:
		return "effect"
	case restarttest.ResultReplayed:
		return "ok"
	case restarttest.ResultConflict, restarttest.ResultFault:
		return "warn"
	}
	return "muted"
}

// brokeAt is the moment a failing check broke, as an event ref: the request
// that made the finding, the attempt that ended unacknowledged, else the end
// of the round (an effect that never happened, a count in the handler's
// tables).
func brokeAt(r restarttest.Round, c restarttest.Check) string {
	switch c.Name {
	case restarttest.CheckKeyPresent:
		for _, q := range r.EffectRequests {
			if q.IdempotencyKey == "" {
				return fmt.Sprintf("request:%d", q.Seq)
			}
		}
	case restarttest.CheckKeyStable:
		if q, ok := firstDiffering(r, func(q restarttest.EffectRequest) (string, bool) { return q.IdempotencyKey, q.IdempotencyKey != "" }); ok {
			return fmt.Sprintf("request:%d", q.Seq)
		}
	case restarttest.CheckPayloadFrozen:
		for _, q := range r.EffectRequests {
			if q.Result == restarttest.ResultConflict {
				return fmt.Sprintf("request:%d", q.Seq)
			}
		}
		if q, ok := firstDiffering(r, func(q restarttest.EffectRequest) (string, bool) { return q.Body, true }); ok {
			return fmt.Sprintf("request:%d", q.Seq)
		}
	case restarttest.CheckEffectOnce:
		executed := map[string]int{}
		for _, q := range r.EffectRequests {
			if q.Result != restarttest.ResultExecuted {
				continue
			}
			if executed[q.Endpoint]++; executed[q.Endpoint] == 2 {
				return fmt.Sprintf("request:%d", q.Seq)
			}
		}
	case restarttest.CheckAcked:
		last, at := -1, int64(-1)
		for i, a := range r.Attempts {
			if end := a.StartMS + a.DurationMS; !a.Acked() && end >= at {
				last, at = i, end
			}
		}
		if last >= 0 {
			return fmt.Sprintf("end:%d", last)
		}
	}
	return "round"
}

// firstDiffering is the first request whose value differs from the first
// value its endpoint got.
func firstDiffering(r restarttest.Round, value func(restarttest.EffectRequest) (string, bool)) (restarttest.EffectRequest, bool) {
	first := map[string]string{}
	for _, q := range r.EffectRequests {
		v, ok := value(q)
		if !ok {
			continue
		}
		f, seen := first[q.Endpoint]
		if !seen {
			first[q.Endpoint] = v
			continue
		}
		if v != f {
			return q, true
		}
	}
	return restarttest.EffectRequest{}, false
}

// checks renders the round's checks and attaches each failing one to the
// event where it broke.
func checks(r restarttest.Round, evs []event) []checkView {
	var out []checkView
	for _, c := range r.Checks {
		v := checkView{Name: c.Name, Detail: c.Detail}
		switch {
		case !c.Applicable:
			v.Mark, v.Class, v.Detail = "–", "muted", "not applicable: "+c.Detail
		case c.Passed:
			v.Mark, v.Class = "✓", "ok"
		default:
			v.Mark, v.Class = "✗", "bad"
			ref := brokeAt(r, c)
			for i := range evs {
				if evs[i].ref == ref {
					v.AtID, v.AtMS = evs[i].ID, evs[i].AtMS
					evs[i].Broken = append(evs[i].Broken, v)
					break
				}
			}
		}
		out = append(out, v)
	}
	return out
}
