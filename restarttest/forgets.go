package restarttest

import "errors"

// The provider-forgets round: the message is delivered until acknowledged,
// the provider forgets every key it remembers (real providers keep them
// for a while: Stripe 24 h), and the same message is delivered again, as
// an at-least-once transport does when the acknowledgement was lost. A
// handler that records its outcome and checks it before calling makes no
// second effect; one that only the provider's memory saved (it calls the
// provider again under the same key, and relies on the replay) makes it
// twice.

// forgetsApplies: in the default plan when the clean round made an effect
// request (else the provider remembers nothing). Not with --client-key:
// the client's retries there are the contract's replay probes.
func (h *harness) forgetsApplies() bool {
	return !h.cfg.Delivery.clientKey() && h.learned.EffectRequests > 0
}

// checkForgetsPlan refuses an explicit provider-forgets round with
// --client-key.
func (h *harness) checkForgetsPlan() error {
	for _, k := range h.cfg.KillPoints {
		if k.Kind == KillForgets && h.cfg.Delivery.clientKey() {
			return errors.New("--kill-at provider-forgets does not apply with --client-key: the API's own replay, not the provider's, answers the client's retries")
		}
	}
	return nil
}

// secondSendReason is what explains a second key in a round that sends
// the message twice as two messages: the fresh envelope ids (resend), the
// spelling (respell), unless the resend round showed the key follows the
// envelope ids.
func (h *harness) secondSendReason(kp KillPoint, rs *roundState) string {
	switch kp.Kind {
	case KillResend:
		return resendExplanation
	case KillRespell:
		if len(h.envelopeDrifted) > 0 {
			return resendExplanation
		}
		why := respellExplanation(rs.respellChanges)
		if !h.resendRan && len(rs.resendChanges) > 0 {
			why += "; or it follows the fresh envelope ids, which --kill-at resend tells apart"
		}
		return why
	}
	return ""
}

// noteEnvelopeDrift records what a resend round showed.
func (h *harness) noteEnvelopeDrift(r Round) {
	h.resendRan = true
	for _, t := range r.Effects {
		if len(t.Keys) > 1 {
			if h.envelopeDrifted == nil {
				h.envelopeDrifted = map[string]bool{}
			}
			h.envelopeDrifted[t.Endpoint] = true
		}
	}
}
