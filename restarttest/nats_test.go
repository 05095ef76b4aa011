package restarttest

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// After the consumers died, JetStream redelivers what they held after
// --ack-wait, and the redelivered attempt then works under the long AckWait
// even if the harness never polls the broker again: on a loaded machine a
// poll can come later than --ack-wait, and the working consumer used to get
// the message a third time. Each death is counted from the deliveries the
// dead consumer held, so a second death of the redelivered attempt is
// redelivered after --ack-wait as well.
func TestNATSRedeliveryNeedsNoPoll(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := openTestNATS(t, ctx, 300*time.Millisecond)
	if err := b.reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.publish(ctx, []byte(`{"id":"m1"}`), "m1"); err != nil {
		t.Fatal(err)
	}
	c, err := b.js.Consumer(ctx, b.stream, b.consumer)
	if err != nil {
		t.Fatal(err)
	}
	for want := uint64(1); want <= 3; want++ {
		got := fetchOne(t, c, 10*time.Second)
		if got == nil {
			t.Fatalf("delivery %d: JetStream did not redeliver after the consumers died", want)
		}
		if n := numDelivered(t, got); n != want {
			t.Fatalf("delivery %d: the message says it was delivered %d times", want, n)
		}
		// The consumer works (or hangs) for several --ack-wait without an
		// acknowledgement, and the harness does not poll meanwhile.
		if again := fetchOne(t, c, 4*b.ackWait); again != nil {
			t.Fatalf("delivery %d: delivered again (%d times) to a consumer still working on it", want, numDelivered(t, again))
		}
		if err := b.consumersDied(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// Two messages, one of them already redelivered: the count of deliveries
// the dead consumers held is only a bound, and both still come back.
func TestNATSRedeliveryOfSeveralHeldMessages(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := openTestNATS(t, ctx, 300*time.Millisecond)
	if err := b.reset(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := b.js.Consumer(ctx, b.stream, b.consumer)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"m1", "m2"} {
		if err := b.publish(ctx, []byte(`{"id":"`+id+`"}`), id); err != nil {
			t.Fatal(err)
		}
		if fetchOne(t, c, 10*time.Second) == nil {
			t.Fatalf("%s was not delivered", id)
		}
		if err := b.consumersDied(ctx); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[uint64]bool{}
	for len(seen) < 2 {
		m := fetchOne(t, c, 10*time.Second)
		if m == nil {
			t.Fatalf("after the consumers died, %d of 2 held messages came back", len(seen))
		}
		meta, err := m.Metadata()
		if err != nil {
			t.Fatal(err)
		}
		seen[meta.Sequence.Stream] = true
		if err := m.Ack(); err != nil {
			t.Fatal(err)
		}
	}
}

func openTestNATS(t *testing.T, ctx context.Context, ackWait time.Duration) *natsBroker {
	t.Helper()
	raw := natsURL(t)
	nc, err := nats.Connect(raw)
	if err != nil {
		t.Fatalf("NATS at %s: %v", raw, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	suffix := randomHex(5)
	b := &natsBroker{
		url: raw, subject: "idemcheck." + suffix, ackWait: ackWait, holdWait: time.Minute, nc: nc, js: js,
		stream: natsStreamPrefix + "T" + suffix, consumer: "idemcheck-" + suffix,
	}
	if err := b.create(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.remove(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return b
}

// fetchOne pulls one message, or nil when none comes within wait.
func fetchOne(t *testing.T, c jetstream.Consumer, wait time.Duration) jetstream.Msg {
	t.Helper()
	batch, err := c.Fetch(1, jetstream.FetchMaxWait(wait))
	if err != nil {
		t.Fatal(err)
	}
	var got jetstream.Msg
	for m := range batch.Messages() {
		got = m
	}
	return got
}

func numDelivered(t *testing.T, m jetstream.Msg) uint64 {
	t.Helper()
	meta, err := m.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	return meta.NumDelivered
}
