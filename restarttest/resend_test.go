package restarttest

import (
	"slices"
	"strings"
	"testing"
)

// A key taken from the transport's message id survives every crash (a
// redelivery carries the same bytes) and fails the resend round: the same
// payment re-sent under a new message id is charged again.
func TestResendCatchesAKeyFromTheMessageID(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "messageidkey")
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillResponse}, KillPoint{Kind: KillResend})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if got := strings.Join(rep.EnvelopeFields, ","); got != "message_id" {
		t.Errorf("envelope fields %q, want message_id", got)
	}
	if rep.Verdict != VerdictFail {
		t.Fatalf("verdict %s, want fail", rep.Verdict)
	}
	for _, r := range rep.Rounds {
		if r.KillPoint != KillResend && r.KillPoint != KillRespell && !r.Passed {
			t.Errorf("round %s failed %v: a redelivery reuses the message id", r.KillPoint, r.Checks)
		}
	}
	r := roundAt(t, rep, KillResend)
	if len(r.Resent) != 1 || r.Resent[0].Path != "message_id" || r.Resent[0].From == r.Resent[0].To {
		t.Errorf("resent %+v, want a fresh message_id", r.Resent)
	}
	once := check(r, CheckEffectOnce)
	if once.Passed || !strings.HasPrefix(once.Detail, "duplicated charge (2 effects") || !strings.HasSuffix(once.Detail, "the key follows the transport's message id") {
		t.Errorf("resend effect-once = %+v", once)
	}
	if ks := check(r, CheckKeyStable); ks.Passed || !strings.Contains(ks.Detail, "the key follows the transport's message id") {
		t.Errorf("resend key-stable = %+v", ks)
	}
	// The summary states the cause once: with the duplicate it explains.
	if n := strings.Count(rep.Summary, "the key follows the transport's message id"); n != 1 {
		t.Errorf("summary states the cause %d times, want once: %q", n, rep.Summary)
	}
}

// The article's intent design derives the key from the payment, so the
// re-sent message finds the same intent, already done.
func TestResendPassesTheIntentDesign(t *testing.T) {
	t.Parallel()
	cfg := exampleConfig(t, "intent")
	cfg.KillPoints = []KillPoint{{Kind: KillResend}}
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	r := rep.Rounds[0]
	if rep.Verdict != VerdictPass || len(r.Attempts) != 2 || r.Attempts[1].Delivery != 2 || !r.Attempts[1].Acked() {
		t.Fatalf("verdict %s, attempts %+v, failed %v", rep.Verdict, r.Attempts, failedChecks(rep))
	}
	if n := r.Effects[0].Executed; n != 1 {
		t.Errorf("%d effects across both deliveries, want 1", n)
	}
}

// --envelope-field names the ids; one that is not there is an error, and
// so is a resend round for a message without any.
func TestResendNeedsAnEnvelopeField(t *testing.T) {
	t.Parallel()
	cfg := shellConfig(t, "intent.sh", KillPoint{Kind: KillResend})
	cfg.EnvelopeFields = []string{"meta.event_id"}
	if _, err := Run(t.Context(), cfg); err == nil || !strings.Contains(err.Error(), `--envelope-field "meta.event_id": not in the message`) {
		t.Errorf("missing field: err = %v", err)
	}
	cfg.EnvelopeFields = nil
	cfg.Message = []byte(`{"payment":{"valor":"1.00"}}`)
	if _, err := Run(t.Context(), cfg); err == nil || !strings.Contains(err.Error(), "--kill-at resend: the message has no envelope field") {
		t.Errorf("no envelope: err = %v", err)
	}
	// Without an envelope field the default plan has no resend round.
	cfg.KillPoints = nil
	cfg.Message = []byte(`{"tenant":"acme","payment":{"valor":"1.00"}}`)
	cfg.Handler = "sh ../testdata/restart/sh/intent.sh"
	h := &harness{cfg: cfg}
	if plan := h.expandPlan([]KillPoint{{Kind: KillNone}}, false); slices.ContainsFunc(plan, func(k KillPoint) bool { return k.Kind == KillResend }) {
		t.Errorf("plan %v has a resend round without an envelope", plan)
	}
}
