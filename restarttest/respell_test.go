package restarttest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/internal/mutant"
)

// The respelled message says the same, spelled another way: its members
// reordered, the CPF bare, the phone without separators, the amount with
// other places in its own JSON type; the envelope id (renewed by the round
// instead) unchanged.
func TestRespelled(t *testing.T) {
	msg := readTestdata(t, "message.json")
	body, changes, ok := respelled(msg, map[string]bool{"message_id": true})
	if !ok {
		t.Fatal("nothing respelled in message.json")
	}
	got := map[string]string{}
	for _, c := range changes {
		got[c.Path] = c.From + " → " + c.To
	}
	for path, want := range map[string]string{
		"payment.chave_pix_destino": `"123.456.789-09" → "12345678909"`,
		"from":                      `"+55 11 98765-4321" → "+5511987654321"`,
		"payment.valor":             `"150.00" → "150"`,
	} {
		if got[path] != want {
			t.Errorf("%s: %q, want %q", path, got[path], want)
		}
	}
	if _, changed := got["message_id"]; changed {
		t.Errorf("the envelope id was respelled: %v", got)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil || m["message_id"] == nil {
		t.Fatalf("respelled message %s: %v", body, err)
	}
	if strings.HasPrefix(string(body), `{"message_id"`) {
		t.Errorf("members not reordered: %s", body)
	}
	if n, _, ok := respelled([]byte(`{"amount":150}`), nil); !ok || string(n) != `{"amount":150.0}` {
		t.Errorf("a number amount: %s", n)
	}
	if _, _, ok := respelled([]byte(`{"note":"hello"}`), nil); ok {
		t.Error("a message without an identifier or amount was respelled")
	}
}

// shellMutant is the Config of sh/intent.sh with the mutant name applied.
func shellMutant(t *testing.T, name string, kill ...KillPoint) Config {
	t.Helper()
	cfg := shellConfig(t, "intent.sh", kill...)
	var s mutationSubject
	for _, c := range mutationSubjects() {
		if c.pkg == "" && c.files[0] == "sh/intent.sh" {
			s = c
		}
	}
	files := map[string][]byte{}
	for _, f := range s.files {
		files[f] = readTestdata(t, f)
	}
	m, err := mutant.Apply(files, name)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Handler = mutantHandler(t, s, m)
	return cfg
}

// intent.sh without its normalization keys the CPF as spelled: the re-sent
// payment, spelled another way, is charged under a second key, and the
// finding names what was spelled another way, both spellings.
func TestRespellNamesTheSpelling(t *testing.T) {
	t.Parallel()
	rep := run(t, shellMutant(t, "normalize", KillPoint{Kind: KillRespell}))
	defer dumpOnFailure(t, rep)
	r := roundAt(t, rep, KillRespell)
	once := check(r, CheckEffectOnce)
	if once.Passed || !strings.HasPrefix(once.Detail, "duplicated charge (2 effects") ||
		!strings.Contains(once.Detail, `the key follows how the message is spelled, not what it says (`) ||
		!strings.Contains(once.Detail, `payment.chave_pix_destino "123.456.789-09" → "12345678909"`) {
		t.Errorf("effect-once = %+v, want the duplicate explained by the respelled fields", once)
	}
	if n := strings.Count(rep.Summary, "the key follows how the message is spelled"); n != 1 {
		t.Errorf("the summary states the cause %d times, want once: %s", n, rep.Summary)
	}
	if len(r.Resent) != 1 || r.Resent[0].Path != "message_id" {
		t.Errorf("resent %+v: the re-send renews the envelope id", r.Resent)
	}
	if !r.KillReached || r.Attempts[1].Delivery != 2 {
		t.Errorf("attempts %+v: the re-send comes after the first delivery's kill, before its redelivery", r.Attempts)
	}
}

// intent.sh calling the provider before it writes or reads its intent is
// saved by the provider's memory in every kill round; once the provider
// forgets, the second delivery charges again.
func TestProviderForgetsNamesTheRetention(t *testing.T) {
	t.Parallel()
	rep := run(t, shellMutant(t, "persist-first", KillPoint{Kind: KillNone}, KillPoint{Kind: KillForgets}))
	defer dumpOnFailure(t, rep)
	once := check(roundAt(t, rep, KillForgets), CheckEffectOnce)
	if once.Passed || !strings.HasPrefix(once.Detail, "duplicated charge (2 effects") ||
		!strings.Contains(once.Detail, "the provider had forgotten the key") ||
		!strings.Contains(once.Detail, "this design needs the provider to keep keys for as long as the message can be redelivered") {
		t.Errorf("effect-once = %+v, want the duplicate explained by the provider's retention", once)
	}
	// The original checks its own record first: no second request.
	orig := run(t, shellConfig(t, "intent.sh", KillPoint{Kind: KillNone}, KillPoint{Kind: KillForgets}))
	defer dumpOnFailure(t, orig)
	if r := roundAt(t, orig, KillForgets); !r.Passed || len(r.EffectRequests) != 1 {
		t.Errorf("intent.sh: provider-forgets passed=%v with %d effect requests, want a pass with 1", r.Passed, len(r.EffectRequests))
	}
}
