package restarttest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

// This file is the one attempt loop every transport delivers through, and
// the one attempt at a long-running HTTP server that the plain POST and
// the client-key API share. The loop decides which attempts are armed
// with the round's kill; the transports only say how one attempt runs.

// attempter runs one attempt of a delivery and settles its record. It
// returns how long the handler asked to wait before the next attempt (an
// HTTP Retry-After), zero when it said nothing.
type attempter func(ctx context.Context, a *attemptRun) (retryAfter time.Duration)

// deliveryLoop is how one delivery is attempted until acknowledged.
type deliveryLoop struct {
	delivery int
	// first is the number of the first attempt to run: a respell round
	// resumes its first delivery after the re-send.
	first int
	// pauseOnKill stops the loop after the attempt the round's kill
	// landed on.
	pauseOnKill bool
	try         attempter
	// settled, when closed, ends the loop between attempts: a broker has
	// nothing left to deliver.
	settled <-chan struct{}
	// afterFailure runs after an attempt that was not acknowledged, before
	// the backoff (a broker starts its redelivery timer).
	afterFailure func()
	// ownCopies says each copy of a concurrent round is a message of its
	// own (a broker publishes each), so another copy's acknowledgement
	// does not end this one; otherwise the copies are one message.
	ownCopies bool
	// ignoreHolds starts the next attempt without waiting for the
	// deliveries the harness holds (a broker's consumer restarts on its
	// own clock).
	ignoreHolds bool
}

// deliveryEnd is where a delivery's loop stopped.
type deliveryEnd struct {
	next int         // the number of the next attempt
	over bool        // acknowledged, out of attempts, or stopped
	last *attemptRun // the last attempt run; nil if none
}

// run runs the delivery's attempts after a short, doubling backoff
// (longer when the handler asked for it), until one is acknowledged, the
// attempts run out, or the round is stopped. Before each attempt after the
// first it waits for the deliveries the harness holds, so a hold never
// spends another delivery's attempts.
func (l deliveryLoop) run(ctx context.Context, rs *roundState) deliveryEnd {
	first := max(l.first, 1)
	cfg := &rs.h.cfg
	backoff := cfg.Backoff
	for i := 2; i < first; i++ {
		backoff = cfg.nextBackoff(backoff)
	}
	wait := backoff
	end := deliveryEnd{next: cfg.MaxAttempts + 1, over: true}
	for i := first; i <= cfg.MaxAttempts; i++ {
		if i > 1 {
			if !l.ignoreHolds {
				rs.holds.waitIdle(ctx, cfg.Timeout)
			}
			select {
			case <-time.After(wait):
			case <-l.settled:
				return deliveryEnd{next: i, over: true, last: end.last}
			case <-ctx.Done():
				return deliveryEnd{next: i, over: true, last: end.last}
			}
			backoff = cfg.nextBackoff(backoff)
			wait = backoff
			if !l.ownCopies && rs.settledByAnother(l.delivery) {
				return deliveryEnd{next: i, over: true, last: end.last}
			}
		}
		a := rs.newAttempt(l.delivery, i)
		end.last = a
		retryAfter := l.try(ctx, a)
		if a.rec.Acked() || ctx.Err() != nil {
			return deliveryEnd{next: i + 1, over: true, last: a}
		}
		if l.afterFailure != nil {
			l.afterFailure()
		}
		if l.pauseOnKill && a.landed() == rs.kp.Landing() {
			return deliveryEnd{next: i + 1, over: false, last: a}
		}
		wait = max(wait, min(retryAfter, maxRetryAfter))
	}
	return end
}

// newAttempt registers the delivery's attempt number index, armed with the
// round's kill while it has not landed: an attempt that failed on its own
// first (a provider 500, a crash) does not use it up. This is the one
// place attempts are armed.
func (rs *roundState) newAttempt(delivery, index int) *attemptRun {
	a := &attemptRun{armed: rs.armable(delivery), msg: rs.message(delivery)}
	a.rec.Delivery, a.rec.Index = delivery, index
	if index == 1 {
		a.gate = rs.gate
	}
	rs.mu.Lock()
	rs.attempts = append(rs.attempts, a)
	rs.mu.Unlock()
	return a
}

// deliverAll runs the round's deliveries through t's attempts, N at once
// in a concurrent round, and waits for them.
func (rs *roundState) deliverAll(ctx context.Context, loop func(delivery int) deliveryLoop) {
	done := make(chan struct{})
	n := rs.deliveries()
	for d := 1; d <= n; d++ {
		go func() {
			defer func() { done <- struct{}{} }()
			loop(d).run(ctx, rs)
		}()
	}
	for range n {
		<-done
	}
}

// serverAttempt is one attempt at a long-running HTTP server: the server
// is started when it is not running, the kill point armed on it, the
// request sent by send, and the answer recorded.
func (rs *roundState) serverAttempt(ctx context.Context, a *attemptRun, srv *server, send func(context.Context, *http.Client) answer) answer {
	started := time.Now()
	rs.begin(a)
	defer rs.end(a, started)
	if a.gate != nil {
		defer a.gate.abandon() // failed before it could send: nobody waits for it
	}
	p, err := srv.ensure(ctx, rs.h.cfg.Timeout)
	if err != nil {
		a.rec.Outcome, a.rec.Error = OutcomeError, err.Error()
		var env *EnvError
		if errors.As(err, &env) {
			rs.envErr(err)
		}
		if p != nil {
			rs.copyServerOutput(a, p)
		}
		return answer{err: err}
	}
	// One process answers every delivery: the kill is the server's, and
	// its process group names no single attempt.
	a.mu.Lock()
	a.killFn = p.kill
	pending := a.killedAt != ""
	a.mu.Unlock()
	if pending {
		p.kill()
	}
	if a.armed && rs.kp.Kind == KillTime {
		// Every copy of a concurrent round is in the one server.
		timer := time.AfterFunc(rs.kp.Delay, func() { rs.kill(a, rs.kp.Concurrent()) })
		defer timer.Stop()
	}
	client := srv.client
	if a.gate != nil {
		client = a.gate.client(ctx)
	}
	ans := send(ctx, client)
	if ans.err == nil {
		a.rec.HTTPStatus = ans.status
		a.rec.Response = string(ans.body) // replay-identical compares the answers
	}
	switch {
	case ans.timedOut:
		a.fire("timeout")
		a.rec.Error = "no answer within the timeout"
	case ans.err != nil:
		a.rec.Error = ans.err.Error()
	}
	if a.killReason() != "" {
		<-p.done
	}
	rs.copyServerOutput(a, p)
	rs.settle(a, ans.err == nil && ans.status/100 == 2)
	return ans
}

// postJSON sends body to url with the headers, waiting at most timeout
// for the answer, and reads it.
func postJSON(ctx context.Context, client *http.Client, url string, body []byte, timeout time.Duration, headers ...httpHeader) answer {
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	r, err := http.NewRequestWithContext(actx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return answer{err: err}
	}
	r.Header.Set("Content-Type", "application/json")
	for _, h := range headers {
		r.Header.Set(h.name, h.value)
	}
	resp, err := client.Do(r)
	if err != nil {
		return answer{err: errors.New(httpErrorText(err)), timedOut: actx.Err() == context.DeadlineExceeded && ctx.Err() == nil}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, responseCap))
	ans := answer{status: resp.StatusCode, body: data, retryAfter: parseRetryAfter(resp.Header.Get("Retry-After"))}
	if err != nil {
		ans.err = errors.New("answer cut off: " + httpErrorText(err))
	}
	return ans
}
