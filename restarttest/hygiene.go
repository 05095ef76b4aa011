package restarttest

import (
	"context"
	"errors"
	"fmt"
)

// A verdict is earned only when the handler works without any kill and
// something was observed. These are the runs that have no verdict.

// nothingToJudgeAdvice says how to give restart-test something to count.
const nothingToJudgeAdvice = "send the handler's effect requests to $PROVIDER_URL, or count its own effects with --effect-sql 'select count(*) from orders'"

// unjudgeable returns an *EnvError when round index of the run shows the
// handler failing on its own (the clean round, or a first round that never
// reached its kill point, with no delivery acknowledged), or when the clean
// round (reference) had nothing to judge.
func (h *harness) unjudgeable(ctx context.Context, index int, r Round, reference bool) error {
	if reference || index == 1 {
		if err := failedOnItsOwn(r); err != nil {
			return err
		}
	}
	if reference && len(r.EffectRequests) == 0 && len(h.cfg.EffectSQL) == 0 {
		return &EnvError{Err: errors.New("the clean round made no effect request and no --effect-sql was given: nothing to judge; " + h.cleanRoundAdvice(ctx, r))}
	}
	return nil
}

// cleanRoundAdvice names the tables the clean round added rows to, when it
// committed writes; the schema still holds that round's rows.
func (h *harness) cleanRoundAdvice(ctx context.Context, r Round) string {
	if r.Writes == 0 || h.db == nil || h.db.seeded == nil {
		return nothingToJudgeAdvice
	}
	after, err := h.db.tableRows(ctx)
	if err != nil {
		return nothingToJudgeAdvice
	}
	return effectSQLAdvice(grownTables(h.db.seeded, after))
}

// failedOnItsOwn reports a round in which no attempt was acknowledged and
// no kill of ours explains it.
func failedOnItsOwn(r Round) error {
	if r.KillReached {
		return nil
	}
	var last *Attempt
	for i := range r.Attempts {
		a := &r.Attempts[i]
		if a.Acked() {
			return nil
		}
		last = a
	}
	if last == nil {
		return nil
	}
	what := "the handler fails on its own, before any kill"
	if r.KillPoint == KillNone {
		what = "the clean round failed on its own"
	}
	return &EnvError{
		Err:  fmt.Errorf("%s: no delivery acknowledged after %d attempt(s) (last: %s); fix the handler so that one delivery without a kill succeeds", what, last.Index, describeOutcome(*last)),
		Tail: lastTail(*last),
	}
}

// nothingObserved returns an *EnvError when no round of the run saw an
// effect request or reached its kill point and no --effect-sql counts local
// effects: every verdict would be unearned. (A plan without a clean round
// whose kills landed and left no effect request has lost the effect.)
func (h *harness) nothingObserved(rounds []Round) error {
	if len(h.cfg.EffectSQL) > 0 {
		return nil
	}
	for _, r := range rounds {
		if len(r.EffectRequests) > 0 || r.KillReached {
			return nil
		}
	}
	return &EnvError{Err: errors.New("no round made an effect request and no --effect-sql was given: nothing to judge; " + nothingToJudgeAdvice)}
}

// lastTail is the end of what the last attempt wrote. Not the harness's own
// error (a server that never listened): the one-line message already says
// it, and it is not the handler's output.
func lastTail(a Attempt) []string {
	_, lines := a.OutputTail()
	return lines
}
