package restarttest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// natsBroker is a JetStream stream and durable consumer created for the
// run: a pull consumer, or with Delivery.Broker.NATSPush a push consumer delivering
// to NATS_DELIVER_SUBJECT in the queue group named like the consumer (so
// concurrent consumers share the messages). JetStream tells exactly what a consumer has not acknowledged
// (NumAckPending) and not yet received (NumPending); a message the handler
// terminates is seen through the server's advisory.
//
// JetStream redelivers a message whose AckWait has passed to whoever
// consumes, also to the consumer still working on it: a push consumer gets
// it pushed again, and charges again after the first one. With a short
// AckWait, a handler slowed by a busy machine would be redelivered to
// without any kill. So the consumer's AckWait is the attempt's time limit
// (holdWait) while a consumer runs, and --ack-wait only for the deliveries
// the dead consumers held. JetStream's BackOff does the switch itself, by
// delivery count: a message its dead consumer got for the n-th time waits
// --ack-wait, its (n+1)-th delivery holdWait, so no poll of the harness's
// stands between a redelivery and the long AckWait (under load a poll came
// later than --ack-wait, and a working consumer got the message again).
type natsBroker struct {
	url      string
	subject  string
	stream   string
	consumer string
	ackWait  time.Duration // after the consumers died: how soon JetStream redelivers
	holdWait time.Duration // while a consumer runs: no redelivery to it
	push     bool
	deliver  string // push: the deliver subject

	nc         *nats.Conn
	js         jetstream.JetStream
	terminated atomic.Int64
	advisory   *nats.Subscription

	mu      sync.Mutex
	config  jetstream.ConsumerConfig // the round's consumer, as created
	applied jetstream.ConsumerConfig // as last updated
	// expiring is set while the next delivery of a held message may wait
	// only ackWait (its delivery count was not known exactly): from the
	// consumers' death until the delivery after deliveredAt.
	expiring    bool
	deliveredAt uint64 // the consumer's delivery sequence when they died
}

func openNATS(ctx context.Context, h *harness) (transport, error) {
	raw := h.cfg.Delivery.URL
	if _, err := checkBrokerHost(raw, h.cfg.Delivery.Broker.AllowRemote); err != nil {
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
		url: raw, subject: h.cfg.Delivery.Broker.Subject, ackWait: h.cfg.Delivery.Broker.AckWait, holdWait: h.cfg.Timeout, push: h.cfg.Delivery.Broker.NATSPush, nc: nc, js: js,
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
		AckWait:       b.holdWait,
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
	b.mu.Lock()
	b.config, b.applied, b.expiring = cfg, cfg, false
	b.mu.Unlock()
	b.terminated.Store(0)
	return nil
}

// consumersDied implements redeliveryTimer: the deliveries the dead
// consumers held wait only --ack-wait, the next ones the long AckWait.
func (b *natsBroker) consumersDied(ctx context.Context) error {
	info, err := b.unbound(ctx)
	if err != nil {
		return err
	}
	held, exact, err := b.heldDeliveries(ctx, info)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.expiring {
		return nil
	}
	cfg := b.config
	cfg.BackOff = make([]time.Duration, held+1)
	for i := range held {
		cfg.BackOff[i] = b.ackWait
	}
	cfg.BackOff[held] = b.holdWait
	cfg.AckWait, cfg.MaxDeliver = b.ackWait, maxDeliverWithBackOff
	if b.applied.AckWait == cfg.AckWait {
		// JetStream looks at the deadlines again only when AckWait changes;
		// an earlier death left it at --ack-wait already.
		if err := b.setAckWait(ctx, b.holdWait); err != nil {
			return err
		}
	}
	b.expiring, b.deliveredAt = !exact, info.Delivered.Consumer
	return b.updateConsumer(ctx, cfg)
}

// maxDeliverWithBackOff stands for "no limit": JetStream wants a MaxDeliver
// longer than the BackOff list, and the attempts are limited by the harness.
const maxDeliverWithBackOff = 1 << 30

// heldDeliveries is how many times the messages the dead consumers held
// were delivered, and whether that is exact. The round's consumer is new
// and its stream purged, so with one message in the stream every delivery
// was of that message; when no held message was redelivered (JetStream
// counts those) each was delivered once. Otherwise the count is an upper
// bound: every held message is redelivered after --ack-wait, and the long
// AckWait comes back once a poll sees the redelivery, as before.
func (b *natsBroker) heldDeliveries(ctx context.Context, info *jetstream.ConsumerInfo) (int, bool, error) {
	if info.NumRedelivered == 0 {
		return 1, true, nil
	}
	s, err := b.js.Stream(ctx, b.stream)
	if err != nil {
		return 0, false, fmt.Errorf("NATS stream %s: %v", b.stream, err)
	}
	delivered := int(info.Delivered.Consumer)
	return delivered, s.CachedInfo().State.Msgs == 1, nil
}

// unbound returns the consumer's info once JetStream no longer counts the
// dead consumer's subscription (push; a second at most): a redelivery
// pushed to a connection the server has not seen close yet would be lost
// until the long AckWait.
func (b *natsBroker) unbound(ctx context.Context) (*jetstream.ConsumerInfo, error) {
	deadline := time.Now().Add(time.Second)
	for {
		info, err := b.consumerInfo(ctx)
		if err != nil || !b.push || !info.PushBound || time.Now().After(deadline) {
			return info, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// redelivered restores the long AckWait once JetStream delivered again
// after the consumers died: the consumer that got the message works on it
// without a redelivery racing it. Lock held.
func (b *natsBroker) redelivered(ctx context.Context, info *jetstream.ConsumerInfo) error {
	if !b.expiring || info.Delivered.Consumer <= b.deliveredAt {
		return nil
	}
	b.expiring = false
	return b.setAckWait(ctx, b.holdWait)
}

// setAckWait updates the round's consumer to one AckWait for every
// delivery (no BackOff). Lock held.
func (b *natsBroker) setAckWait(ctx context.Context, d time.Duration) error {
	cfg := b.config
	cfg.AckWait = d
	return b.updateConsumer(ctx, cfg)
}

// updateConsumer changes the round's consumer; JetStream applies a new
// AckWait or BackOff to the messages already delivered. Lock held.
func (b *natsBroker) updateConsumer(ctx context.Context, cfg jetstream.ConsumerConfig) error {
	var err error
	if b.push {
		_, err = b.js.UpdatePushConsumer(ctx, b.stream, cfg)
	} else {
		_, err = b.js.UpdateConsumer(ctx, b.stream, cfg)
	}
	if err != nil {
		return fmt.Errorf("NATS consumer %s: set AckWait to %s: %v", b.consumer, cfg.AckWait, err)
	}
	b.applied = cfg
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
	b.mu.Lock()
	err = b.redelivered(ctx, info)
	b.mu.Unlock()
	if err != nil {
		return brokerPending{}, err
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
