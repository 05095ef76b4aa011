package htmlreport

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/restarttest"
)

// The respell and provider-forgets rounds are drawn with their names and
// what their second delivery changed.
func TestReportRendersTheSecondSendRounds(t *testing.T) {
	change := func(path, from, to string) restarttest.EnvelopeChange {
		return restarttest.EnvelopeChange{Path: path, From: from, To: to}
	}
	rep := &restarttest.Report{Verdict: restarttest.VerdictFail, Rounds: []restarttest.Round{
		{Index: 1, KillPoint: restarttest.KillRespell, KillReached: true,
			Attempts: []restarttest.Attempt{
				{Delivery: 1, Index: 1, Outcome: restarttest.OutcomeKilled, KilledAt: "response"},
				{Delivery: 2, Index: 1, Outcome: restarttest.OutcomeAcked},
			},
			Resent:    []restarttest.EnvelopeChange{change("message_id", `"wamid.A"`, `"wamid.B"`)},
			Respelled: []restarttest.EnvelopeChange{change("payment.chave_pix_destino", `"123.456.789-09"`, `"12345678909"`)}},
		{Index: 2, KillPoint: restarttest.KillForgets, Passed: true,
			Attempts: []restarttest.Attempt{
				{Delivery: 1, Index: 1, Outcome: restarttest.OutcomeAcked},
				{Delivery: 2, Index: 1, Outcome: restarttest.OutcomeAcked},
			}},
	}}
	var b bytes.Buffer
	if err := Write(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := html.UnescapeString(b.String())
	for _, want := range []string{
		"re-sent spelled another way",
		`delivery 2 re-sent after delivery 1 was killed at response, before its redelivery, with fresh message_id "wamid.A" → "wamid.B"`,
		`spelled another way: members reordered, payment.chave_pix_destino "123.456.789-09" → "12345678909"`,
		"delivered again, the provider forgot its keys",
		"the provider forgot every key in between",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
