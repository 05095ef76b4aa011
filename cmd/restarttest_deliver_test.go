package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRestartTestDeliveryUsageErrors(t *testing.T) {
	t.Parallel()
	msg := filepath.Join("..", "testdata", "restart", "message.json")
	base := []string{"--handler", "true", "--message", msg}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--client-key"}, "--client-key needs an HTTP API"},
		{[]string{"--client-key", "--deliver", "amqp://127.0.0.1"}, "--client-key needs an HTTP API"},
		{[]string{"--client-header", "Authorization: Bearer a"}, "apply to --client-key"},
		{[]string{"--require-key", "--deliver", "http://127.0.0.1:1/x"}, "apply to --client-key"},
		{[]string{"--client-key", "--deliver", "http://127.0.0.1:1/x", "--client-header", "alice"}, "want 'Name: Value'"},
		{[]string{"--queue", "q", "--deliver", "nats://127.0.0.1"}, "--queue applies to an amqp://"},
		{[]string{"--subject", "s"}, "--subject and --nats-push apply to a nats://"},
		{[]string{"--deliver", "amqp://127.0.0.1", "--ack-wait", "0s"}, "--ack-wait must be positive"},
		{[]string{"--deliver", "kafka://u:hunter2@127.0.0.1"}, "bad --deliver URL"},
	}
	for _, tc := range cases {
		args := append(append([]string(nil), base...), tc.args...)
		code, _, stderr := runRestartTest(t, args...)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
		if strings.Contains(stderr, "hunter2") {
			t.Errorf("%v: the password is in the error: %q", tc.args, stderr)
		}
	}
}
