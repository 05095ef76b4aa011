package restarttest

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kill point kinds.
const (
	KillNone          = "none"           // the clean round: no kill
	KillRequest       = "request"        // first effect request arrived, not executed; dropped
	KillResponse      = "response"       // effect executed, killed before the response reached the handler
	KillAfterResponse = "after-response" // killed right after the response was delivered
	KillDBWrite       = "db-write"       // killed right after the N-th writing transaction committed, before its reply
	KillDBCommitLost  = "db-commit-lost" // the N-th writing commit happened, its reply is dropped and the connection closed; no kill
	KillTime          = "time"           // killed after a delay
	KillConcurrent    = "concurrent"     // no kill: N deliveries of the same message at once
	KillRandom        = "random"         // --rounds K rounds at random kill points (--seed)
)

// KillPoint says where a round crashes the handler.
type KillPoint struct {
	Kind  string
	N     int           // db-write:N, db-commit-lost:N, concurrent:N
	Delay time.Duration // time:DURATION
}

func (k KillPoint) String() string {
	switch k.Kind {
	case KillDBWrite, KillDBCommitLost, KillConcurrent:
		return fmt.Sprintf("%s:%d", k.Kind, k.N)
	case KillTime:
		return fmt.Sprintf("%s:%s", k.Kind, k.Delay)
	}
	return k.Kind
}

// Label is the human name of the round.
func (k KillPoint) Label() string {
	switch k.Kind {
	case KillNone:
		return "clean (no kill)"
	case KillConcurrent:
		return fmt.Sprintf("%d deliveries at once", k.N)
	}
	return "kill at " + k.String()
}

// ParseKillPoint parses a --kill-at value: none, request, response,
// after-response, db-write:N, db-commit-lost:N, time:DURATION, concurrent:N
// or random.
func ParseKillPoint(s string) (KillPoint, error) {
	kind, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	switch kind {
	case KillNone, "clean":
		if !hasArg {
			return KillPoint{Kind: KillNone}, nil
		}
	case KillRequest, KillResponse, KillAfterResponse, KillRandom:
		if !hasArg {
			return KillPoint{Kind: kind}, nil
		}
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
	return KillPoint{}, fmt.Errorf("unknown kill point %q: want none, request, response, after-response, db-write:N, db-commit-lost:N, time:DURATION, concurrent:N or random", s)
}
