package keyname

import "testing"

func TestKey(t *testing.T) {
	for _, name := range []string{"idempotencyKey", "IdempotencyKey", "idempotency_key", "Idempotency-Key",
		"idemKey", "dedupKey", "DedupeKey", "chave_idempotencia", "chaveIdempotência",
		"ClientRequestToken", "CallerReference", "MessageDeduplicationId", "IdempotencyToken", "paymentIdempotencyKey", "sender_batch_id"} {
		if !Key.Match(name) {
			t.Errorf("Key.Match(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"ClientToken", "key", "apiKey", "orderID", "token", "clientTokenExpiry2", "requestID", "messageID", ""} {
		if Key.Match(name) {
			t.Errorf("Key.Match(%q) = true, want false", name)
		}
	}
}

func TestHeader(t *testing.T) {
	for _, name := range []string{"Idempotency-Key", "idempotency-key", "X-Idempotency-Key", "Idempotency-Token", "IDEMPOTENCY_KEY"} {
		if !Header.Match(name) {
			t.Errorf("Header.Match(%q) = false", name)
		}
	}
	for _, name := range []string{"X-Request-Id", "Authorization", "Idempotency-Key-Hint"} {
		if Header.Match(name) {
			t.Errorf("Header.Match(%q) = true", name)
		}
	}
}

func TestIdentity(t *testing.T) {
	for _, name := range []string{"message_id", "MessageID", "MessageId", "wamid", "DeliveryTag", "ReceiptHandle",
		"request_id", "X-Request-Id", "TraceID", "span_id", "Attempt", "RetryCount", "Redelivered", "ApproximateReceiveCount"} {
		if !Identity.Match(name) {
			t.Errorf("Identity.Match(%q) = false", name)
		}
	}
	for _, name := range []string{"OrderID", "TenantID", "messages", "CustomerID", "Amount"} {
		if Identity.Match(name) {
			t.Errorf("Identity.Match(%q) = true", name)
		}
	}
}

func TestJSONTagName(t *testing.T) {
	cases := map[string]string{
		`json:"message_id,omitempty"`:   "message_id",
		`db:"x" json:"idempotency_key"`: "idempotency_key",
		`yaml:"a"`:                      "",
		``:                              "",
		`json:"-"`:                      "-",
	}
	for tag, want := range cases {
		if got := JSONTagName(tag); got != want {
			t.Errorf("JSONTagName(%q) = %q, want %q", tag, got, want)
		}
	}
}
