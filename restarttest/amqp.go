package restarttest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// amqpBroker is a RabbitMQ queue declared for the run, with a dead-letter
// queue beside it so a rejected message is seen, not lost. RabbitMQ tells
// only how many messages are ready, not how many a live consumer holds
// unacknowledged: the round ends once nothing is ready and the consumer has
// been idle for the idle window; then the consumer is stopped, and a message
// it never acknowledged comes back as ready, which the broker then says.
type amqpBroker struct {
	url    string
	queue  string
	dlq    string
	conn   *amqp.Connection
	record string // the file naming the queues for a later run's sweep

	mu sync.Mutex
	ch *amqp.Channel
}

func openAMQP(ctx context.Context, h *harness) (transport, error) {
	raw := h.cfg.Delivery.URL
	if _, err := checkBrokerHost(raw, h.cfg.Delivery.Broker.AllowRemote); err != nil {
		return nil, &EnvError{Err: err}
	}
	conn, err := amqp.DialConfig(raw, amqp.Config{Dial: amqp.DefaultDial(5 * time.Second)})
	if err != nil {
		return nil, envErrorf("RabbitMQ at %s is not reachable: %v", RedactURL(raw), amqpErrorText(err))
	}
	b := &amqpBroker{url: raw, queue: h.cfg.Delivery.Broker.Queue, conn: conn}
	b.sweepStaleQueues()
	if b.queue == "" {
		b.queue = "idemcheck-" + randomHex(5) + ownerSuffix()
	}
	b.dlq = b.queue + ".rejected"
	if err := b.declare(); err != nil {
		if b.record != "" && b.deleteQueues() == nil {
			os.Remove(b.record)
		}
		b.conn.Close()
		return nil, &EnvError{Err: err}
	}
	return newBrokerTransport(h, b, raw, h.cfg.Delivery.Broker.AckWait), nil
}

func amqpErrorText(err error) string {
	var ae *amqp.Error
	if errors.As(err, &ae) {
		return ae.Reason
	}
	return err.Error()
}

// channel returns a usable channel; RabbitMQ closes a channel on any
// channel-level error, so a closed one is replaced, and a lost connection
// is dialed again.
func (b *amqpBroker) channel() (*amqp.Channel, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch != nil && !b.ch.IsClosed() {
		return b.ch, nil
	}
	if b.conn.IsClosed() {
		conn, err := amqp.DialConfig(b.url, amqp.Config{Dial: amqp.DefaultDial(5 * time.Second)})
		if err != nil {
			return nil, fmt.Errorf("RabbitMQ at %s: the connection was lost and cannot be made again: %v", RedactURL(b.url), amqpErrorText(err))
		}
		b.conn = conn
	}
	ch, err := b.conn.Channel()
	if err != nil {
		return nil, fmt.Errorf("RabbitMQ at %s: %v", RedactURL(b.url), amqpErrorText(err))
	}
	if err := ch.Confirm(false); err != nil {
		return nil, fmt.Errorf("RabbitMQ at %s: publisher confirms: %v", RedactURL(b.url), amqpErrorText(err))
	}
	b.ch = ch
	return ch, nil
}

// declare creates the run's queues; a queue that already exists is refused,
// since the run deletes its queues at the end.
func (b *amqpBroker) declare() error {
	for _, q := range []string{b.queue, b.dlq} {
		ch, err := b.channel()
		if err != nil {
			return err
		}
		if _, err := ch.QueueDeclarePassive(q, true, false, false, false, nil); err == nil {
			return fmt.Errorf("queue %q already exists on RabbitMQ at %s: restart-test declares and deletes its own queue; pass an unused --queue", q, RedactURL(b.url))
		}
	}
	// Recorded before they exist: a kill right after the declare must not
	// leave them unrecorded. (Not before the check: a queue that already
	// existed is not the run's to delete.)
	var err error
	if b.record, err = recordQueues(amqpServer(b.url), b.queue, b.dlq); err != nil {
		return fmt.Errorf("cannot record the run's queues: %v", err)
	}
	ch, err := b.channel()
	if err != nil {
		return err
	}
	if _, err := ch.QueueDeclare(b.dlq, true, false, false, false, nil); err != nil {
		return fmt.Errorf("declare queue %s: %v", b.dlq, amqpErrorText(err))
	}
	args := amqp.Table{"x-dead-letter-exchange": "", "x-dead-letter-routing-key": b.dlq}
	if _, err := ch.QueueDeclare(b.queue, true, false, false, false, args); err != nil {
		return fmt.Errorf("declare queue %s: %v", b.queue, amqpErrorText(err))
	}
	return nil
}

func (b *amqpBroker) where() string {
	return fmt.Sprintf("RabbitMQ queue %s at %s", b.queue, RedactURL(b.url))
}

func (b *amqpBroker) env() []string {
	return []string{"AMQP_URL=" + b.url, "AMQP_QUEUE=" + b.queue}
}

// reset waits until no consumer of the previous round is attached (their
// unacknowledged messages have returned) and purges both queues.
func (b *amqpBroker) reset(ctx context.Context) error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		ch, err := b.channel()
		if err != nil {
			return err
		}
		q, err := ch.QueueDeclarePassive(b.queue, true, false, false, false, nil)
		if err != nil {
			return fmt.Errorf("queue %s: %v", b.queue, amqpErrorText(err))
		}
		if q.Consumers == 0 || time.Now().After(deadline) {
			break
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for _, q := range []string{b.queue, b.dlq} {
		ch, err := b.channel()
		if err != nil {
			return err
		}
		if _, err := ch.QueuePurge(q, false); err != nil {
			return fmt.Errorf("purge queue %s: %v", q, amqpErrorText(err))
		}
	}
	return nil
}

// publish sends the message persistent, with its message id, and waits for
// the broker's confirmation.
func (b *amqpBroker) publish(ctx context.Context, body []byte, messageID string) error {
	ch, err := b.channel()
	if err != nil {
		return err
	}
	conf, err := ch.PublishWithDeferredConfirmWithContext(ctx, "", b.queue, true, false, amqp.Publishing{
		ContentType:  "application/json",
		DeliveryMode: amqp.Persistent,
		MessageId:    messageID,
		Timestamp:    time.Now(),
		Body:         body,
	})
	if err != nil {
		return fmt.Errorf("publish to queue %s: %v", b.queue, amqpErrorText(err))
	}
	if ok, err := conf.WaitContext(ctx); err != nil || !ok {
		return fmt.Errorf("publish to queue %s: the broker did not confirm it", b.queue)
	}
	return nil
}

// pending is what RabbitMQ says: messages ready, and rejected ones
// dead-lettered. Messages a live consumer holds are invisible here (-1).
func (b *amqpBroker) pending(context.Context) (brokerPending, error) {
	ch, err := b.channel()
	if err != nil {
		return brokerPending{}, err
	}
	q, err := ch.QueueDeclarePassive(b.queue, true, false, false, false, nil)
	if err != nil {
		return brokerPending{}, fmt.Errorf("queue %s: %v", b.queue, amqpErrorText(err))
	}
	dl, err := ch.QueueDeclarePassive(b.dlq, true, false, false, false, nil)
	if err != nil {
		return brokerPending{}, fmt.Errorf("queue %s: %v", b.dlq, amqpErrorText(err))
	}
	p := brokerPending{ready: q.Messages, rejected: dl.Messages}
	if q.Consumers > 0 {
		p.unacked = -1
	}
	if p.rejected > 0 {
		p.ready = max(p.ready, 1) // a rejected message is not an acknowledged one
	}
	return p, nil
}

// remove deletes both queues (over a new connection when the run's was
// lost) and checks they are gone. Queues it cannot delete are named in the
// error, and stay recorded for the next run's sweep.
func (b *amqpBroker) remove(context.Context) error {
	defer func() { b.conn.Close() }()
	if err := b.deleteQueues(); err != nil {
		return fmt.Errorf("%v: queues %s and %s are left on RabbitMQ at %s (the next run against it deletes them, or rabbitmqctl delete_queue)",
			err, b.queue, b.dlq, RedactURL(b.url))
	}
	os.Remove(b.record)
	return nil
}

func (b *amqpBroker) deleteQueues() error {
	for _, q := range []string{b.queue, b.dlq} {
		if err := b.deleteQueue(q); err != nil {
			return err
		}
	}
	for _, q := range []string{b.queue, b.dlq} {
		ch, err := b.channel()
		if err != nil {
			return err
		}
		if _, err := ch.QueueDeclarePassive(q, true, false, false, false, nil); err == nil {
			return fmt.Errorf("queue %s is still there after the run", q)
		}
	}
	return nil
}
