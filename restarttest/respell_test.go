package restarttest

import (
	"encoding/json"
	"strings"
	"testing"
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
