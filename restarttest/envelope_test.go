package restarttest

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestFindEnvelopeDefaultsAndPaths(t *testing.T) {
	msg := []byte(`{"id": 42, "meta": {"event_id": "evt_1", "list": [{"id": "a"}, {"id": "b-1"}]}, "message_id":"wamid.HBg1",
  "payment": {"id": "not-top-level", "valor": "150.00"}}`)
	got := defaultEnvelope(t, msg, func(s envelopeSpan) string { return s.path + "=" + string(msg[s.start:s.end]) })
	if want := []string{`message_id="wamid.HBg1"`, `id=42`, `meta.event_id="evt_1"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("default envelope %v, want %v", got, want)
	}
	spans, err := findEnvelope(msg, []string{"$.meta.event_id", "meta.list[1].id"})
	if err != nil || len(spans) != 2 || string(msg[spans[1].start:spans[1].end]) != `"b-1"` {
		t.Fatalf("explicit paths: %v %v", spans, err)
	}
	out, changes := resent(msg, spans)
	var before, after map[string]any
	if err := json.Unmarshal(msg, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &after); err != nil {
		t.Fatalf("re-sent message is not JSON: %v\n%s", err, out)
	}
	meta := after["meta"].(map[string]any)
	if meta["event_id"] == "evt_1" || !regexp.MustCompile(`^[a-z]{3}_\d$`).MatchString(meta["event_id"].(string)) {
		t.Errorf("event_id %v: want a fresh value of the same shape", meta["event_id"])
	}
	if len(changes) != 2 || changes[0].Path != "$.meta.event_id" || changes[0].From != `"evt_1"` {
		t.Errorf("changes %+v", changes)
	}
	// Everything else is byte for byte the same.
	if !strings.Contains(string(out), `"payment": {"id": "not-top-level", "valor": "150.00"}}`) || !strings.HasPrefix(string(out), `{"id": 42, "meta": {"event_id": "`) {
		t.Errorf("re-sent message changed more than the envelope:\n%s", out)
	}
	for _, bad := range [][]string{{"nope"}, {"payment"}, {"a..b"}} {
		if _, err := findEnvelope(msg, bad); err == nil {
			t.Errorf("findEnvelope(%v) accepted", bad)
		}
	}
	if spans, err := findEnvelope([]byte("not json"), nil); err != nil || len(spans) != 0 {
		t.Errorf("plain text message: %v %v, want no envelope", spans, err)
	}
}

// defaultEnvelope is findEnvelope's default fields of msg, each shown.
func defaultEnvelope(t *testing.T, msg []byte, show func(envelopeSpan) string) []string {
	t.Helper()
	spans, err := findEnvelope(msg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range spans {
		out = append(out, show(s))
	}
	return out
}

// Below the top level, a message or delivery id anywhere, and an event id
// or an id only inside a member that holds the envelope: the business
// content's ids (a concert's event_id, a payment's id) stay as they are.
func TestFindEnvelopeNestedIDs(t *testing.T) {
	msg := []byte(`{"object": "whatsapp_business_account",
  "entry": [{"id": "WABA1", "changes": [{"value": {"messages": [{"id": "wamid.HBg2", "from": "5511"}]}}]}],
  "meta": {"event_id": "evt_9", "source": "x"},
  "data": {"message_id": "m-1", "delivery_id": 7},
  "order": {"event_id": "concert-12", "id": "ord_3", "items": [{"id": "sku-1"}]},
  "event": {"id": "evt_2", "type": "payment.succeeded"}}`)
	got := defaultEnvelope(t, msg, func(s envelopeSpan) string { return s.path })
	want := []string{"data.delivery_id", "data.message_id", "entry.0.changes.0.value.messages.0.id", "event.id", "meta.event_id"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("nested envelope %v, want %v", got, want)
	}
}

func TestFreshValueKeepsTheShape(t *testing.T) {
	uuid := `"3f2b8c1e-9d4a-4e2f-8b1a-0c9d8e7f6a5b"`
	got := string(freshValue([]byte(uuid)))
	if got == uuid || !regexp.MustCompile(`^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$`).MatchString(got) {
		t.Errorf("fresh UUID %s", got)
	}
	if got := string(freshValue([]byte(`"--"`))); got == `"--"` {
		t.Errorf("fresh value of a value without letters or digits: %s", got)
	}
	if got := string(freshValue([]byte(`17`))); got == "17" {
		t.Errorf("fresh number %s", got)
	}
}

// A key that carries the envelope id a re-send renewed is explained by
// that field, not by whatever else the round changed; a digest, which
// hides what it was taken over, or a value too short to tell from a
// coincidence, names nothing.
func TestKeysCarryRenewed(t *testing.T) {
	renewed := []EnvelopeChange{{Path: "message_id", From: `"wamid.HBgNNTUxMTk5"`, To: `"wamid.NJjIJLmQ2"`}, {Path: "id", From: `7`, To: `8`}}
	cases := []struct {
		keys []string
		want string
	}{
		{[]string{"wamid.HBgNNTUxMTk5", "wamid.NJjIJLmQ2"}, "the key carries message_id (wamid.HBgNNT…, then wamid.NJjIJLmQ2)"},
		{[]string{"pay:wamid.HBgNNTUxMTk5:150", "pay:wamid.NJjIJLmQ2:150"}, "the key carries message_id"},
		{[]string{"3f9a1c0e5d", "b2c4e6a8f0"}, ""},
		{[]string{"wamid.HBgNNTUxMTk5", "c0ffee"}, ""},
	}
	for _, c := range cases {
		got := keysCarryRenewed(c.keys, renewed)
		if c.want == "" && got != "" || c.want != "" && !strings.HasPrefix(got, c.want) {
			t.Errorf("keys %q: got %q, want %q…", c.keys, got, c.want)
		}
	}
}
