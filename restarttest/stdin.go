package restarttest

import (
	"context"
	"net/http"
	"time"
)

// stdinTransport runs the handler once per attempt with the message on
// its standard input; exit 0 acknowledges it.
type stdinTransport struct{}

func (stdinTransport) deliver(ctx context.Context, rs *roundState) {
	deliverInTurnOrTogether(ctx, rs, func(d int) deliveryLoop {
		return deliveryLoop{delivery: d, try: func(ctx context.Context, a *attemptRun) time.Duration {
			rs.execAttempt(ctx, a)
			return 0
		}}
	})
}

func (stdinTransport) judge(context.Context, *roundState, *Round) error { return nil }
func (stdinTransport) describe(*Report)                                 {}
func (stdinTransport) close() error                                     { return nil }
func (stdinTransport) failure() error                                   { return nil }
func (stdinTransport) oneProcess() bool                                 { return false }

// postTransport POSTs the message to the handler, a long-running HTTP
// server the harness starts when it is not running; a 2xx answer
// acknowledges it, and the answers of one round must agree.
type postTransport struct {
	srv     *server
	timeout time.Duration
}

func (t *postTransport) deliver(ctx context.Context, rs *roundState) {
	defer t.srv.stop()
	deliverInTurnOrTogether(ctx, rs, func(d int) deliveryLoop {
		return deliveryLoop{delivery: d, try: func(ctx context.Context, a *attemptRun) time.Duration {
			return rs.serverAttempt(ctx, a, t.srv, func(ctx context.Context, client *http.Client) answer {
				return postJSON(ctx, client, t.srv.url, a.msg.body, t.timeout)
			}).retryAfter
		}}
	})
}

// judge compares the round's answers: a redelivery answered with another
// body re-rendered what it should have replayed. A second tenant's answer
// is its own.
func (t *postTransport) judge(_ context.Context, rs *roundState, r *Round) error {
	if kind := rs.planned.Kind; kind != KillTenant {
		r.Checks = append(r.Checks, checkAnswersAgree(r, kind == KillResend || kind == KillRespell))
	}
	return nil
}

func (t *postTransport) describe(*Report) {}
func (t *postTransport) close() error     { t.srv.stop(); return nil }
func (t *postTransport) failure() error   { return t.srv.failure() }
func (t *postTransport) oneProcess() bool { return true }

// deliverInTurnOrTogether runs a round whose deliveries each run a loop of
// their own: two in turn (resend, respell, a second tenant, provider
// forgets), else the round's deliveries at once.
func deliverInTurnOrTogether(ctx context.Context, rs *roundState, loop func(delivery int) deliveryLoop) {
	switch {
	case rs.planned.Kind == KillRespell:
		rs.deliverRespell(ctx, loop)
	case rs.inTurn():
		rs.deliverResend(ctx, loop)
	default:
		rs.deliverAll(ctx, loop)
	}
}
