package restarttest

import (
	"context"
	"errors"
	"os"
)

// The resend round: the publisher sends the same business message again
// (its own retry, a user pressing again, a webhook replayed by the sender)
// after the first was acknowledged, under fresh transport ids. A key taken
// from the transport's message id gives the same action a second key.

// resendApplies decides whether the run has a resend round: only when the
// message has an envelope field to renew. When the client owns the
// operation's identity (--client-key) a re-send under a new key is a new
// operation by contract: no resend round.
func (h *harness) resendApplies() bool {
	if h.cfg.Delivery.clientKey() {
		return false
	}
	return len(h.envelope) > 0
}

// checkResendPlan refuses an explicit resend round that has nothing to
// renew.
func (h *harness) checkResendPlan() error {
	for _, k := range h.cfg.KillPoints {
		switch {
		case k.Kind != KillResend || h.resendApplies():
		case h.cfg.Delivery.clientKey():
			return errors.New("--kill-at resend does not apply with --client-key: the client owns the operation's key, and a re-send under a new key is a new operation")
		default:
			return errors.New("--kill-at resend: the message has no envelope field to renew (message_id, messageId, MessageId, event_id, eventId or id at the top level, a message or delivery id below it, an event id or id inside meta, event or message); name one with --envelope-field PATH")
		}
	}
	return nil
}

// delivered is the message one delivery of a round sends.
type delivered struct {
	body []byte
	file string // the same bytes in a file, for the handler's stdin
}

// prepareResend makes the re-sent message of a resend round.
func (rs *roundState) prepareResend() error { return rs.prepareSecond(rs.h.envelope) }

// prepareSecond makes the second delivery's message: the original with
// fresh values of the same shape at spans.
func (rs *roundState) prepareSecond(spans []envelopeSpan) error {
	body, changes := resent(rs.h.cfg.Message, spans)
	file, err := writeMessageFile(body)
	if err != nil {
		return err
	}
	rs.resend = &delivered{body: body, file: file}
	rs.resendChanges = changes
	return nil
}

// message is what delivery d of the round sends: the re-sent message for
// the second delivery of a resend round, the original otherwise.
func (rs *roundState) message(d int) delivered {
	if rs.resend != nil && d == 2 {
		return *rs.resend
	}
	return delivered{body: rs.h.cfg.Message, file: rs.h.msgFile}
}

func (rs *roundState) cleanupResend() {
	if rs.resend != nil {
		os.Remove(rs.resend.file)
	}
}

// deliverResend delivers the original until acknowledged, then the re-sent
// message until acknowledged.
func (rs *roundState) deliverResend(ctx context.Context, loop func(delivery int) deliveryLoop) {
	loop(1).run(ctx, rs)
	if rs.deliveryAcked(1) && ctx.Err() == nil {
		rs.between()
		loop(2).run(ctx, rs)
	}
}

// inTurn reports whether the round delivers twice in turn, the second
// after the first was acknowledged: resend, respell on a broker,
// provider-forgets.
func (rs *roundState) inTurn() bool { return rs.resend != nil || rs.forget != nil }

// between runs what happens between two deliveries in turn.
func (rs *roundState) between() {
	if rs.forget != nil {
		rs.forget()
	}
}

func (rs *roundState) deliveryAcked(d int) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, a := range rs.attempts {
		if a.rec.Delivery == d && a.rec.Acked() {
			return true
		}
	}
	return false
}

// writeMessageFile stores a message for the handlers' stdin.
func writeMessageFile(body []byte) (string, error) {
	f, err := createMessageFile()
	if err != nil {
		return "", err
	}
	_, err = f.Write(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
