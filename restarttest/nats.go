package restarttest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// natsBroker is a JetStream stream and durable consumer created for the
// run: a pull consumer, or with Config.NATSPush a push consumer delivering
// to NATS_DELIVER_SUBJECT in the queue group named like the consumer (so
// concurrent consumers share the messages). JetStream tells exactly what a consumer has not acknowledged
// (NumAckPending) and not yet received (NumPending); a message the handler
// terminates is seen through the server's advisory.
type natsBroker struct {
	url      string
	subject  string
	stream   string
	consumer string
	ackWait  time.Duration
	push     bool
	deliver  string // push: the deliver subject

	nc         *nats.Conn
	js         jetstream.JetStream
	terminated atomic.Int64
	advisory   *nats.Subscription
}

func openNATS(ctx context.Context, h *harness) (transport, error) {
	raw := h.cfg.DeliverURL
	if _, err := checkBrokerHost(raw, h.cfg.AllowRemote); err != nil {
		return nil, &EnvError{Err: err}
	}
	nc, err := nats.Connect(raw, nats.Timeout(5*time.Second), nats.MaxReconnects(0), nats.Name("idemcheck restart-test"))
	if err != nil {
		return nil, envErrorf("NATS at %s is not reachable: %v", RedactURL(raw), natsErrorText(err, raw))
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, envErrorf("NATS at %s: %v", RedactURL(raw), err)
	}
	suffix := randomHex(5)
	b := &natsBroker{
		url: raw, subject: h.cfg.Subject, ackWait: h.cfg.AckWait, push: h.cfg.NATSPush, nc: nc, js: js,
		stream:   natsStreamPrefix + strings.ToUpper(suffix),
		consumer: "idemcheck-" + suffix,
	}
	if b.subject == "" {
		b.subject = "idemcheck." + suffix
	}
	if b.push {
		b.deliver = "idemcheck.deliver." + suffix
	}
	b.sweepStaleStreams(ctx)
	if err := b.create(ctx); err != nil {
		nc.Close()
		return nil, &EnvError{Err: err}
	}
	return newBrokerTransport(h, b, raw, 100*time.Millisecond), nil
}

// natsStreamPrefix starts the name of every stream a run creates.
const natsStreamPrefix = "IDEMCHECK_"

// natsErrorText keeps a password in the URL out of the message.
func natsErrorText(err error, raw string) string {
	text := err.Error()
	if errors.Is(err, nats.ErrNoServers) {
		text = "no server answered"
	}
	return strings.ReplaceAll(text, raw, RedactURL(raw))
}

func (b *natsBroker) create(ctx context.Context) error {
	_, err := b.js.CreateStream(ctx, jetstream.StreamConfig{
		Name:        b.stream,
		Description: streamDescription(),
		Subjects:    []string{b.subject},
		Storage:     jetstream.FileStorage,
	})
	switch {
	case errors.Is(err, jetstream.ErrJetStreamNotEnabled):
		return fmt.Errorf("NATS at %s has no JetStream: start nats-server with -js", RedactURL(b.url))
	case err != nil:
		return fmt.Errorf("NATS at %s: create a stream for subject %s: %v", RedactURL(b.url), b.subject, err)
	}
	b.advisory, err = b.nc.Subscribe("$JS.EVENT.ADVISORY.CONSUMER.MSG_TERMINATED."+b.stream+"."+b.consumer,
		func(*nats.Msg) { b.terminated.Add(1) })
	if err != nil {
		return fmt.Errorf("NATS at %s: %v", RedactURL(b.url), err)
	}
	return nil
}

func (b *natsBroker) where() string {
	kind := "consumer"
	if b.push {
		kind = "push consumer"
	}
	return fmt.Sprintf("NATS subject %s (stream %s, %s %s) at %s", b.subject, b.stream, kind, b.consumer, RedactURL(b.url))
}

func (b *natsBroker) env() []string {
	env := []string{"NATS_URL=" + b.url, "NATS_SUBJECT=" + b.subject, "NATS_STREAM=" + b.stream, "NATS_CONSUMER=" + b.consumer}
	if b.push {
		env = append(env, "NATS_DELIVER_SUBJECT="+b.deliver)
	}
	return env
}

// reset gives every round an empty stream and a fresh durable consumer, so
// a message a round left unacknowledged is not redelivered in the next.
func (b *natsBroker) reset(ctx context.Context) error {
	s, err := b.js.Stream(ctx, b.stream)
	if err != nil {
		return fmt.Errorf("NATS stream %s: %v", b.stream, err)
	}
	if err := s.DeleteConsumer(ctx, b.consumer); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return fmt.Errorf("NATS consumer %s: %v", b.consumer, err)
	}
	if err := s.Purge(ctx); err != nil {
		return fmt.Errorf("NATS stream %s: purge: %v", b.stream, err)
	}
	cfg := jetstream.ConsumerConfig{
		Durable:       b.consumer,
		Description:   "idemcheck restart-test run; deleted at the end",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       b.ackWait,
		FilterSubject: b.subject,
		MaxDeliver:    -1,
	}
	if b.push {
		cfg.DeliverSubject, cfg.DeliverGroup = b.deliver, b.consumer
		_, err = b.js.CreatePushConsumer(ctx, b.stream, cfg)
	} else {
		_, err = s.CreateConsumer(ctx, cfg)
	}
	if err != nil {
		return fmt.Errorf("NATS consumer %s: %v", b.consumer, err)
	}
	b.terminated.Store(0)
	return nil
}

// publish sends the message. No Nats-Msg-Id: two publishes of one message
// (concurrent:N) must both arrive, as a producer's duplicate does.
func (b *natsBroker) publish(ctx context.Context, body []byte, messageID string) error {
	msg := nats.NewMsg(b.subject)
	msg.Data = body
	msg.Header.Set("Content-Type", "application/json")
	msg.Header.Set("Message-Id", messageID)
	if _, err := b.js.PublishMsg(ctx, msg); err != nil {
		return fmt.Errorf("publish to NATS subject %s: %v", b.subject, err)
	}
	return nil
}

func (b *natsBroker) pending(ctx context.Context) (brokerPending, error) {
	info, err := b.consumerInfo(ctx)
	if err != nil {
		return brokerPending{}, fmt.Errorf("NATS consumer %s: %v", b.consumer, err)
	}
	p := brokerPending{ready: int(info.NumPending), unacked: info.NumAckPending, rejected: int(b.terminated.Load())}
	if p.rejected > 0 {
		p.ready = max(p.ready, 1)
	}
	return p, nil
}

func (b *natsBroker) consumerInfo(ctx context.Context) (*jetstream.ConsumerInfo, error) {
	var c interface {
		Info(context.Context) (*jetstream.ConsumerInfo, error)
	}
	var err error
	if b.push {
		c, err = b.js.PushConsumer(ctx, b.stream, b.consumer)
	} else {
		c, err = b.js.Consumer(ctx, b.stream, b.consumer)
	}
	if err != nil {
		return nil, fmt.Errorf("NATS consumer %s: %v", b.consumer, err)
	}
	return c.Info(ctx)
}

// remove deletes the consumer and the stream (over a new connection when
// the run's was lost) and checks they are gone; a stream it cannot delete
// is named in the error, and the next run's sweep deletes it.
func (b *natsBroker) remove(ctx context.Context) error {
	defer func() { b.nc.Close() }()
	if b.advisory != nil {
		_ = b.advisory.Unsubscribe()
	}
	if !b.nc.IsConnected() {
		if err := b.reconnect(); err != nil {
			return fmt.Errorf("NATS at %s: the connection was lost and cannot be made again (%v): stream %s is left (the next run deletes it, or nats stream rm %s)",
				RedactURL(b.url), natsErrorText(err, b.url), b.stream, b.stream)
		}
	}
	if err := b.js.DeleteStream(ctx, b.stream); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return fmt.Errorf("NATS at %s: delete stream %s: %v: it is left (the next run deletes it, or nats stream rm %s)", RedactURL(b.url), b.stream, err, b.stream)
	}
	if _, err := b.js.Stream(ctx, b.stream); !errors.Is(err, jetstream.ErrStreamNotFound) {
		return fmt.Errorf("NATS stream %s is still on %s after the run", b.stream, RedactURL(b.url))
	}
	return nil
}

// reconnect replaces a lost connection.
func (b *natsBroker) reconnect() error {
	nc, err := nats.Connect(b.url, nats.Timeout(5*time.Second), nats.MaxReconnects(0), nats.Name("idemcheck restart-test"))
	if err != nil {
		return err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return err
	}
	b.nc.Close()
	b.nc, b.js = nc, js
	return nil
}
