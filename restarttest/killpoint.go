package restarttest

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/idemcheck/idemcheck/internal/suggest"
)

// Kill point kinds.
const (
	KillNone          = "none"             // the clean round: no kill
	KillRequest       = "request"          // K-th effect request of an attempt arrived, not executed; dropped
	KillResponse      = "response"         // K-th effect executed, killed before its response reached the handler
	KillAfterResponse = "after-response"   // killed right after the K-th response was delivered
	KillDBWrite       = "db-write"         // killed right after the N-th writing transaction committed, before its reply
	KillDBCommitLost  = "db-commit-lost"   // the N-th writing commit happened, its reply is dropped and the connection closed; no kill
	KillTime          = "time"             // killed after a delay
	KillConcurrent    = "concurrent"       // no kill: N deliveries of the same message at once
	KillResend        = "resend"           // no kill: the message re-sent under fresh envelope ids after it was acknowledged
	KillRespell       = "respell"          // the message re-sent under fresh envelope ids, spelled another way, after the first was killed at its first response
	KillForgets       = "provider-forgets" // no kill: the message delivered again after it was acknowledged, the provider having forgotten its keys
	KillTenant        = "second-tenant"    // no kill: the same message for another tenant, under fresh envelope ids, after the first was acknowledged
	KillRandom        = "random"           // --rounds K rounds at random kill points (--seed)
)

// KillPoint says where a round crashes the handler.
type KillPoint struct {
	Kind  string
	N     int           // db-write:N, db-commit-lost:N, concurrent:N; request:K, response:K, after-response:K (0 means 1)
	Delay time.Duration // time:DURATION
	// Together is N of concurrent:N+KILL: N copies of the message at once,
	// the first to reach the kill point Kind, N and Delay name killed there
	// (0 in every other round).
	Together int
}

// Concurrent reports whether the round delivers several copies at once:
// concurrent:N, or concurrent:N+KILL.
func (k KillPoint) Concurrent() bool { return k.Kind == KillConcurrent || k.Together > 0 }

// Deliveries is how many copies of the message the round starts at once.
func (k KillPoint) Deliveries() int {
	switch {
	case k.Together > 0:
		return k.Together
	case k.Kind == KillConcurrent:
		return k.N
	}
	return 1
}

// Landing is what an attempt hit by this kill point records: the kill
// itself, without the concurrent:N+ of its round.
func (k KillPoint) Landing() string {
	k.Together = 0
	return k.String()
}

// oneMessage reports whether the round's copies are one message, so the
// first acknowledgement settles all of them: concurrent:N+KILL, where a
// copy reaches a second consumer while the first still works on it (an
// SQS visibility timeout, a NATS AckWait), and a killed copy is not
// delivered again once another was acknowledged.
func (k KillPoint) oneMessage() bool { return k.Together > 0 }

// perRequest reports whether the kind kills around the K-th effect request
// of an attempt.
func perRequest(kind string) bool {
	return kind == KillRequest || kind == KillResponse || kind == KillAfterResponse
}

// RequestIndex is K of request:K, response:K and after-response:K; a bare
// kill point means the first request.
func (k KillPoint) RequestIndex() int { return max(k.N, 1) }

func (k KillPoint) String() string {
	if k.Together > 0 {
		return fmt.Sprintf("%s:%d+%s", KillConcurrent, k.Together, k.Landing())
	}
	switch {
	case k.Kind == KillDBWrite, k.Kind == KillDBCommitLost, k.Kind == KillConcurrent:
		return fmt.Sprintf("%s:%d", k.Kind, k.N)
	case k.Kind == KillTime:
		return fmt.Sprintf("%s:%s", k.Kind, k.Delay)
	case perRequest(k.Kind) && k.N > 1:
		// request:1 is spelled bare, as it always was.
		return fmt.Sprintf("%s:%d", k.Kind, k.N)
	}
	return k.Kind
}

// Label is the human name of the round.
func (k KillPoint) Label() string {
	if k.Together > 0 {
		return fmt.Sprintf("%d deliveries at once, one killed at %s", k.Together, k.Landing())
	}
	switch k.Kind {
	case KillNone:
		return "clean (no kill)"
	case KillConcurrent:
		return fmt.Sprintf("%d deliveries at once", k.N)
	case KillResend:
		return "re-sent with fresh envelope ids"
	case KillRespell:
		return "re-sent spelled another way"
	case KillForgets:
		return "delivered again, the provider forgot its keys"
	case KillTenant:
		return "the same message for a second tenant"
	}
	return "kill at " + k.String()
}

// kills reports whether the round has a kill point to reach.
func (k KillPoint) kills() bool {
	switch k.Kind {
	case KillNone, KillConcurrent, KillResend, KillRespell, KillForgets, KillTenant:
		// A respell round's kill is its first delivery's (roundState.kp).
		return false
	}
	return true
}

// ParseKillPoint parses a --kill-at value: none, request[:K], response[:K],
// after-response[:K], db-write:N, db-commit-lost:N, time:DURATION,
// concurrent:N[+KILL], resend, respell, provider-forgets, second-tenant or
// random.
func ParseKillPoint(s string) (KillPoint, error) {
	if n, kill, ok := concurrentWithKill(s); ok {
		return parseConcurrentKill(s, n, kill)
	}
	kind, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	switch kind {
	case KillNone, "clean":
		if !hasArg {
			return KillPoint{Kind: KillNone}, nil
		}
	case KillRandom, KillResend, KillRespell, KillForgets, KillTenant:
		if !hasArg {
			return KillPoint{Kind: kind}, nil
		}
	case KillRequest, KillResponse, KillAfterResponse:
		if !hasArg {
			return KillPoint{Kind: kind}, nil
		}
		n, err := strconv.Atoi(arg)
		if err == nil && n >= 1 {
			return KillPoint{Kind: kind, N: n}, nil
		}
		return KillPoint{}, fmt.Errorf("bad kill point %q: want %s:K with K ≥ 1, the K-th effect request of an attempt", s, kind)
	case KillDBWrite, KillDBCommitLost, KillConcurrent:
		n, err := strconv.Atoi(arg)
		if err == nil && n >= 1 && (kind != KillConcurrent || n >= 2 && n <= 64) {
			return KillPoint{Kind: kind, N: n}, nil
		}
		if kind == KillConcurrent {
			return KillPoint{}, fmt.Errorf("bad kill point %q: want concurrent:N with N from 2 to 64", s)
		}
		return KillPoint{}, fmt.Errorf("bad kill point %q: want %s:N with N ≥ 1", s, kind)
	case KillTime:
		d, err := time.ParseDuration(arg)
		if err == nil && d > 0 {
			return KillPoint{Kind: KillTime, Delay: d}, nil
		}
		return KillPoint{}, fmt.Errorf("bad kill point %q: want time:DURATION, e.g. time:150ms", s)
	}
	hint := ""
	if c := suggest.Closest(kind, killKinds); c != "" {
		hint = " (did you mean " + c + "?)"
	}
	return KillPoint{}, fmt.Errorf("unknown kill point %q%s: want none, request[:K], response[:K], after-response[:K], db-write:N, db-commit-lost:N, time:DURATION, concurrent:N[+KILL], resend, respell, provider-forgets, second-tenant or random", s, hint)
}

// concurrentWithKill splits concurrent:N+KILL.
func concurrentWithKill(s string) (n, kill string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(s), KillConcurrent+":")
	if !found {
		return "", "", false
	}
	return strings.Cut(rest, "+")
}

// parseConcurrentKill parses concurrent:N+KILL, where KILL is a kill point
// that kills an attempt: request, response, after-response, db-write,
// db-commit-lost or time.
func parseConcurrentKill(s, n, kill string) (KillPoint, error) {
	together, err := strconv.Atoi(n)
	if err != nil || together < 2 || together > 64 {
		return KillPoint{}, fmt.Errorf("bad kill point %q: want concurrent:N+KILL with N from 2 to 64, e.g. concurrent:2+response", s)
	}
	kp, err := ParseKillPoint(kill)
	if err != nil {
		return KillPoint{}, err
	}
	if !kp.kills() || kp.Kind == KillRandom {
		return KillPoint{}, fmt.Errorf("bad kill point %q: after concurrent:N+ want a kill: request, response, after-response, db-write:N, db-commit-lost:N or time:DURATION", s)
	}
	kp.Together = together
	return kp, nil
}

// KillPointForms are the --kill-at values as a shell completes them, each
// with what it does ("value\tdescription"); a form ending in ":" wants its
// argument typed after it.
func KillPointForms() []string {
	return []string{
		KillNone + "\tthe clean round: no kill",
		KillRequest + "\tkill when the effect request arrives (request:K for the K-th)",
		KillResponse + "\tkill after the effect, before its response (response:K)",
		KillAfterResponse + "\tkill right after the response is delivered (after-response:K)",
		KillDBWrite + ":\tkill after the N-th committed write",
		KillDBCommitLost + ":\tdrop the reply of the N-th commit",
		KillTime + ":\tkill after a DURATION",
		KillConcurrent + ":\tN deliveries at once (concurrent:N+KILL kills the first copy to reach KILL)",
		KillResend + "\tre-send under fresh envelope ids",
		KillRespell + "\tre-send spelled another way after a kill",
		KillForgets + "\tdeliver again after the provider forgot its keys",
		KillTenant + "\tthe same message for another tenant",
		KillRandom + "\t--rounds random kill points",
	}
}

// killKinds are the kill points' names, for a suggestion on a typo.
var killKinds = []string{KillNone, KillRequest, KillResponse, KillAfterResponse, KillDBWrite, KillDBCommitLost, KillTime, KillConcurrent, KillResend, KillRespell, KillForgets, KillTenant, KillRandom}
