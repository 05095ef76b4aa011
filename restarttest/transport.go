package restarttest

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Delivery says how the message reaches the handler. The zero value writes
// it to the handler's standard input, one process per attempt.
type Delivery struct {
	// URL is where the message goes. Empty: the handler's stdin. http://:
	// the handler is a long-running server and the message is POSTed
	// here. amqp:// or nats://: the message is published to a RabbitMQ
	// queue or a NATS JetStream stream the handler consumes from.
	URL string
	// ClientKey, with an http:// URL, makes idemcheck the API's client
	// under the Idempotency-Key contract; nil posts the message plainly.
	ClientKey *ClientKeyDelivery
	// Broker tunes an amqp:// or nats:// URL.
	Broker BrokerDelivery
}

// ClientKeyDelivery is the client side of the Idempotency-Key contract;
// see clientkey.go.
type ClientKeyDelivery struct {
	Header        string   // default Idempotency-Key
	ClientHeaders []string // "Name: Value", one per client; the first is used for ordinary deliveries
	RequireKey    bool     // a request without the key must be refused
}

// BrokerDelivery tunes a broker delivery; see broker.go.
type BrokerDelivery struct {
	Queue       string        // AMQP queue (default: fresh per run)
	Subject     string        // NATS subject (default: fresh per run)
	AckWait     time.Duration // NATS AckWait once the consumers died (Timeout while one runs); the AMQP idle window (default 1s)
	AllowRemote bool          // a broker that is not on loopback
	NATSPush    bool          // a NATS push consumer instead of a pull consumer
}

// clientKey reports whether idemcheck acts as the API's client.
func (d Delivery) clientKey() bool { return d.ClientKey != nil }

// transport is how a message reaches the handler: on its standard input
// (stdinTransport), in a plain POST to its HTTP server (postTransport), to
// an HTTP API under the Idempotency-Key contract (clientKeyTransport), on
// a RabbitMQ queue (amqpBroker) or on a NATS JetStream consumer
// (natsBroker). Every one runs its attempts through deliveryLoop, which
// arms them with the round's kill.
type transport interface {
	// deliver runs the round's deliveries (rs.deliveries() of the same
	// message at once, or two in turn) until each is acknowledged or its
	// attempts run out, and leaves no handler process running.
	deliver(ctx context.Context, rs *roundState)
	// judge adds the transport's own checks to a frozen round. An error
	// is a harness failure.
	judge(ctx context.Context, rs *roundState, r *Round) error
	// describe puts the transport's setup into the report's header.
	describe(rep *Report)
	// failure is a harness failure the transport met in the round (a
	// foreign listener on the server's port), or nil.
	failure() error
	// oneProcess reports whether one handler process answers every
	// delivery (a server), so a concurrent round cannot tell the
	// deliveries' arrivals apart by process and starts them at a gate.
	oneProcess() bool
	// close removes what the run created outside the schema (queues,
	// streams) and checks that nothing is left.
	close() error
}

// openTransport picks the transport the configuration asks for.
func (h *harness) openTransport(ctx context.Context) (transport, error) {
	raw := h.cfg.Delivery.URL
	if raw == "" {
		if h.cfg.Delivery.clientKey() {
			return nil, envErrorf("client keys need an HTTP API: pass --deliver http://127.0.0.1:PORT/path")
		}
		return stdinTransport{}, nil
	}
	scheme, _, _ := strings.Cut(raw, "://")
	switch strings.ToLower(scheme) {
	case "http":
		if !h.cfg.Delivery.clientKey() {
			srv, err := newServer(h.cfg.Handler, raw, h.env)
			if err != nil {
				return nil, &EnvError{Err: err}
			}
			return &postTransport{srv: srv, timeout: h.cfg.Timeout}, nil
		}
		t, err := newClientKeyTransport(h)
		if err != nil {
			return nil, &EnvError{Err: err}
		}
		return t, nil
	case "amqp", "amqps":
		return openAMQP(ctx, h)
	case "nats", "tls":
		return openNATS(ctx, h)
	}
	return nil, envErrorf("bad --deliver URL %q: want http://, amqp:// or nats://", RedactURL(raw))
}

// RedactURL hides the password of a URL, for messages and reports.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// checkBrokerHost refuses a broker that is not on loopback unless allowed:
// restart-test creates and deletes queues and streams.
func checkBrokerHost(raw string, allowRemote bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("bad --deliver URL %q: want %s://HOST:PORT", RedactURL(raw), strings.SplitN(raw, ":", 2)[0])
	}
	if !allowRemote && !isLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("broker host %q is not loopback; pass --allow-remote if you really mean it", u.Hostname())
	}
	return u, nil
}

// deliveryText says how the message reached the handler, for the header.
func deliveryText(rep *Report) string {
	switch {
	case rep.Broker != "":
		return "published to " + rep.Broker
	case rep.Deliver == "":
		return "message on stdin"
	case rep.ClientKey != "":
		return "POST " + rep.Deliver + " as its client, " + rep.ClientKey + " per request"
	}
	return "POST " + rep.Deliver
}
