package cmd

import (
	"strings"

	"github.com/idemcheck/idemcheck/restarttest"
)

// deliveryConfig validates how the message reaches the handler: stdin, a
// POST (optionally as a client under the Idempotency-Key contract), or a
// broker, and fills cfg from the flags.
func deliveryConfig(opts *RestartTestOptions, cfg *restarttest.Config) error {
	scheme, _, _ := strings.Cut(opts.Deliver, "://")
	scheme = strings.ToLower(scheme)
	http := opts.Deliver != "" && scheme == "http"
	broker := scheme == "amqp" || scheme == "amqps" || scheme == "nats"
	switch {
	case opts.Deliver != "" && !http && !broker:
		return UsageErrorf("bad --deliver URL %q: want http://127.0.0.1:PORT/path, amqp://HOST:PORT or nats://HOST:PORT", restarttest.RedactURL(opts.Deliver))
	case opts.ClientKey && !http:
		return UsageErrorf("--client-key needs an HTTP API: pass --deliver http://127.0.0.1:PORT/path")
	case !opts.ClientKey && (len(opts.ClientHeaders) > 0 || opts.RequireKey):
		return UsageErrorf("--client-header and --require-key apply to --client-key, which is not set")
	case opts.Queue != "" && scheme != "amqp" && scheme != "amqps":
		return UsageErrorf("--queue applies to an amqp:// --deliver")
	case (opts.Subject != "" || opts.NATSPush) && scheme != "nats":
		return UsageErrorf("--subject and --nats-push apply to a nats:// --deliver")
	case opts.AckWait <= 0:
		return UsageErrorf("--ack-wait must be positive")
	}
	for _, h := range opts.ClientHeaders {
		if _, _, err := restarttest.ParseClientHeader(h); err != nil {
			return UsageErrorf("--client-header: %v", err)
		}
	}
	cfg.Delivery = restarttest.Delivery{URL: opts.Deliver, Broker: restarttest.BrokerDelivery{
		Queue: opts.Queue, Subject: opts.Subject, AckWait: opts.AckWait, AllowRemote: opts.AllowRemote, NATSPush: opts.NATSPush,
	}}
	if opts.ClientKey {
		cfg.Delivery.ClientKey = &restarttest.ClientKeyDelivery{
			Header: opts.ClientKeyHeader, ClientHeaders: opts.ClientHeaders, RequireKey: opts.RequireKey,
		}
	}
	return nil
}
