package restarttest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/idemcheck/idemcheck/internal/loopback"
	"github.com/idemcheck/idemcheck/internal/testenv"
)

// The broker tests talk to a real RabbitMQ and a real NATS with JetStream:
// IDEMCHECK_TEST_AMQP and IDEMCHECK_TEST_NATS, by default the local ones.
// Without them the tests skip, except under CI, where that is a failure.
func brokerURL(t *testing.T, env, def string) string {
	t.Helper()
	testenv.SkipIfShort(t, "needs a broker")
	raw := os.Getenv(env)
	if raw == "" {
		raw = def
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%s: %v", env, err)
	}
	c, err := net.DialTimeout("tcp", u.Host, time.Second)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s at %s is not reachable under CI: %v", env, u.Host, err)
		}
		t.Skipf("no broker at %s (set %s): %v", u.Host, env, err)
	}
	c.Close()
	return raw
}

func amqpURL(t *testing.T) string {
	return brokerURL(t, "IDEMCHECK_TEST_AMQP", "amqp://guest:guest@127.0.0.1:5672/")
}

func natsURL(t *testing.T) string {
	return brokerURL(t, "IDEMCHECK_TEST_NATS", "nats://127.0.0.1:4222")
}

// consumer returns testdata/restart/consumers/<name>, built once.
func consumer(t *testing.T, name string) string {
	t.Helper()
	return buildMain(t, "testdata/restart/consumers/"+name)
}

func brokerConfig(t *testing.T, deliver, handler string) Config {
	return Config{
		Handler:     handler,
		Delivery:    Delivery{URL: deliver, Broker: BrokerDelivery{AckWait: 400 * time.Millisecond}},
		Message:     readTestdata(t, "message.json"),
		Setup:       string(readTestdata(t, "consumers/setup.sql")),
		MaxAttempts: 4,
		Timeout:     attemptLimit,
		Backoff:     30 * time.Millisecond,
		DSN:         dsn(t),
	}
}

// amqpConfig is brokerConfig with RabbitMQ's idle window at its default:
// RabbitMQ only tells when a message is taken, so a busy machine needs the
// margin before a quiet consumer counts as done.
func amqpConfig(t *testing.T, handler string) Config {
	cfg := brokerConfig(t, amqpURL(t), handler)
	cfg.Delivery.Broker.AckWait = time.Second
	return cfg
}

// Every default kill point on the intent consumer: the broker redelivers
// after each kill and the charge happens once. NATS (pull) at the default
// level; RabbitMQ, whose idle window makes each round a second longer, and
// NATS push with IDEMCHECK_TESTS=full.
func TestBrokerIntentConsumersPass(t *testing.T) {
	t.Parallel()
	cases := map[string]func(*testing.T) Config{
		"amqp": func(t *testing.T) Config { return amqpConfig(t, consumer(t, "amqp")+" -key intent") },
		"nats": func(t *testing.T) Config { return brokerConfig(t, natsURL(t), consumer(t, "nats")+" -key intent") },
		"nats-push": func(t *testing.T) Config {
			cfg := brokerConfig(t, natsURL(t), consumer(t, "nats")+" -push -key intent")
			cfg.Delivery.Broker.NATSPush = true
			return cfg
		},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name != "nats" {
				testenv.SkipUnlessFull(t, "the default plan on "+name)
			}
			rep := run(t, cfg(t))
			defer dumpOnFailure(t, rep)
			if name == "nats-push" && rep.Verdict == VerdictIncomplete {
				// JetStream pushes both copies to the first member of the
				// queue group to bind, before the other has: the copies
				// then never race, and the round says so instead of
				// passing.
				if r := roundAt(t, rep, "concurrent:2"); r.RaceNotRun == "" || rep.RoundsFailed != 0 {
					t.Fatalf("verdict incomplete, failed %v, concurrent round race_not_run %q: want only the race named as not run", failedChecks(rep), r.RaceNotRun)
				}
			} else if rep.Verdict != VerdictPass {
				t.Fatalf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
			}
			if rep.Learned.Writes != 2 || rep.Learned.EffectRequests != 1 {
				t.Errorf("learned %+v, want 2 writes and 1 effect request", rep.Learned)
			}
			for _, k := range []string{"request", "response", "after-response", "db-write:1"} {
				r := roundAt(t, rep, k)
				if !r.KillReached || len(r.Attempts) < 2 || !r.Attempts[len(r.Attempts)-1].Acked() {
					t.Errorf("round %s: reached %v, attempts %+v: want a kill, a redelivery by the broker, an ack", k, r.KillReached, r.Attempts)
				}
			}
			// Two consumers on one queue, the message published twice: both
			// copies are acknowledged, by whichever consumer took them.
			r := roundAt(t, rep, "concurrent:2")
			if maxDelivery(r) != 2 || check(r, CheckAcked).Detail != "" {
				t.Errorf("concurrent round: attempts %+v, want two consumers, both acked", r.Attempts)
			}
			// NATS consumers, each its own process, meet at the
			// rendezvous, so the race happens.
			if name == "nats" && (len(r.Rendezvous) == 0 || !r.Rendezvous[0].Reached) {
				t.Errorf("concurrent round: rendezvous %+v; want both consumers held and released together", r.Rendezvous)
			}
		})
	}
}

// A consumer whose pulls hold several messages takes every copy of a
// concurrent round and handles them in turn: the round ran no race, so it
// is not tested, and the run is incomplete rather than a pass.
func TestBrokerConcurrentRoundOneConsumerTookEveryCopy(t *testing.T) {
	t.Parallel()
	cfg := brokerConfig(t, natsURL(t), consumer(t, "nats")+" -key intent -batch 10")
	cfg.KillPoints = []KillPoint{{Kind: KillNone}, {Kind: KillConcurrent, N: 2}}
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	r := roundAt(t, rep, "concurrent:2")
	if r.RaceNotRun == "" || r.Untested() == "" {
		t.Fatalf("concurrent round: race_not_run %q, rendezvous %+v: want the race named as not run", r.RaceNotRun, r.Rendezvous)
	}
	if rep.Verdict != VerdictIncomplete || !strings.Contains(rep.Summary, "PullMaxMessages(1)") {
		t.Errorf("verdict %s (%s), want incomplete, saying how to let each consumer hold one message", rep.Verdict, rep.Summary)
	}
}

// A key drawn per delivery (RabbitMQ) or from the delivery count (NATS)
// charges again on the broker's redelivery.
func TestBrokerPerDeliveryKeysFail(t *testing.T) {
	t.Parallel()
	cases := map[string]func(*testing.T) Config{
		"amqp": func(t *testing.T) Config {
			return amqpConfig(t, consumer(t, "amqp")+" -key delivery")
		},
		"nats": func(t *testing.T) Config {
			return brokerConfig(t, natsURL(t), consumer(t, "nats")+" -key delivery-count")
		},
		"nats-push": func(t *testing.T) Config {
			cfg := brokerConfig(t, natsURL(t), consumer(t, "nats")+" -push -key delivery-count")
			cfg.Delivery.Broker.NATSPush = true
			return cfg
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg := mk(t)
			cfg.KillPoints = []KillPoint{{Kind: KillNone}, {Kind: KillResponse}}
			rep := run(t, cfg)
			defer dumpOnFailure(t, rep)
			if rep.Verdict != VerdictFail {
				t.Fatalf("verdict %s, want fail", rep.Verdict)
			}
			if !roundAt(t, rep, "none").Passed {
				t.Error("the clean round must pass: one delivery charges once")
			}
			r := roundAt(t, rep, "response")
			if once := check(r, CheckEffectOnce); once.Passed || !strings.HasPrefix(once.Detail, "duplicated charge (2 effects") {
				t.Errorf("response round: effect-once %+v, want duplicated charge", once)
			}
			if !check(r, CheckKeyStable).Failed() {
				t.Error("response round: key-stable passed with a key per delivery")
			}
		})
	}
}

// A consumer slower than --ack-wait (the provider answers after twice the
// AckWait, as a busy machine can make it) is not redelivered to while it
// works: JetStream redelivers only after the consumer died. Before, a push
// consumer got the message pushed again mid-charge and charged once more
// with the next delivery count: the clean round failed and the response
// round counted 3 effects.
func TestNATSSlowConsumerNotRedelivered(t *testing.T) {
	t.Parallel()
	for _, push := range []bool{true, false} {
		name := map[bool]string{true: "push", false: "pull"}[push]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			handler := consumer(t, "nats") + " -key delivery-count"
			if push {
				handler += " -push"
			}
			cfg := brokerConfig(t, natsURL(t), handler)
			cfg.Delivery.Broker.NATSPush = push
			cfg.Fault = ProviderFault{Delay: 2 * cfg.Delivery.Broker.AckWait}
			cfg.KillPoints = []KillPoint{{Kind: KillNone}, {Kind: KillResponse}}
			rep := run(t, cfg)
			defer dumpOnFailure(t, rep)
			if clean := roundAt(t, rep, "none"); !clean.Passed || len(clean.EffectRequests) != 1 {
				t.Errorf("clean round: passed %v with %d effect requests, want one delivery charging once", clean.Passed, len(clean.EffectRequests))
			}
			r := roundAt(t, rep, "response")
			if once := check(r, CheckEffectOnce); !strings.HasPrefix(once.Detail, "duplicated charge (2 effects") {
				t.Errorf("response round: effect-once %+v, want the kill's one redelivery charging a second time", once)
			}
		})
	}
}

// A RabbitMQ consumer quiet for longer than the idle window while it works
// (between recording the payment and charging it, as a loaded machine can
// make it) is not taken for done: the harness saw that the broker still
// held the message after it stopped the consumer, and ran the round again
// with twice the window. Before, every attempt was stopped mid-work, the
// clean round was never acknowledged, or a consumer stopped just after its
// charge made a key per delivery charge twice (a cold run under load).
func TestAMQPSlowConsumerIsNotStoppedAsIdle(t *testing.T) {
	t.Parallel()
	cfg := brokerConfig(t, amqpURL(t), consumer(t, "amqp")+" -key delivery -think 1200ms")
	cfg.Delivery.Broker.AckWait = time.Second
	cfg.KillPoints = []KillPoint{{Kind: KillNone}}
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	clean := roundAt(t, rep, "none")
	if !clean.Passed || len(clean.EffectRequests) != 1 || len(clean.Attempts) != 1 {
		t.Errorf("clean round: passed %v with %d effect requests in %d attempts, want one attempt charging once", clean.Passed, len(clean.EffectRequests), len(clean.Attempts))
	}
}

// A run leaves no queue behind, and refuses a queue that already exists.
func TestAMQPQueueLifecycle(t *testing.T) {
	t.Parallel()
	raw := amqpURL(t)
	cfg := amqpConfig(t, consumer(t, "amqp"))
	cfg.Delivery.Broker.Queue = "idemcheck-test-" + randomHex(4)
	cfg.KillPoints = []KillPoint{{Kind: KillNone}}
	run(t, cfg)
	conn, err := amqp.Dial(raw)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{cfg.Delivery.Broker.Queue, cfg.Delivery.Broker.Queue + ".rejected"} {
		ch, _ := conn.Channel()
		if _, err := ch.QueueDeclarePassive(q, true, false, false, false, nil); err == nil {
			t.Errorf("queue %s is still there after the run", q)
		}
	}
	ch, _ := conn.Channel()
	if _, err := ch.QueueDeclare(cfg.Delivery.Broker.Queue, false, true, false, false, nil); err != nil {
		t.Fatal(err)
	}
	defer func() { ch, _ := conn.Channel(); _, _ = ch.QueueDelete(cfg.Delivery.Broker.Queue, false, false, false) }()
	_, err = Run(context.Background(), cfg)
	var env *EnvError
	if !errors.As(err, &env) || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("run on an existing queue: %v, want an environment error saying it exists", err)
	}
}

// An unreachable broker is an environment error naming the URL without its
// password.
func TestBrokerUnreachable(t *testing.T) {
	t.Parallel()
	port, err := loopback.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{
		fmt.Sprintf("amqp://guest:hunter2@127.0.0.1:%d/", port),
		fmt.Sprintf("nats://app:hunter2@127.0.0.1:%d", port),
	} {
		cfg := Config{Handler: "true", Delivery: Delivery{URL: raw}, Message: []byte("{}"), DSN: dsn(t)}
		_, err := Run(context.Background(), cfg)
		var env *EnvError
		if !errors.As(err, &env) || !strings.Contains(err.Error(), "not reachable") || !strings.Contains(err.Error(), fmt.Sprint(port)) {
			t.Errorf("%s: %v, want an environment error naming the broker", raw, err)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the password is in %q", raw, err)
		}
	}
	cfg := Config{Handler: "true", Delivery: Delivery{URL: "amqp://guest:guest@10.9.8.7:5672/"}, Message: []byte("{}"), DSN: dsn(t)}
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "--allow-remote") {
		t.Errorf("remote broker: %v, want a refusal naming --allow-remote", err)
	}
}

// The kill points outside the default plan: a commit whose reply never
// comes (the example consumers crash on a lost connection, and the broker
// redelivers) and a kill after a delay. RabbitMQ at the default level, NATS
// too with IDEMCHECK_TESTS=full.
func TestBrokerCommitLostAndTimeKills(t *testing.T) {
	t.Parallel()
	cases := map[string]func(*testing.T) Config{
		"amqp": func(t *testing.T) Config { return amqpConfig(t, consumer(t, "amqp")) },
		"nats": func(t *testing.T) Config { return brokerConfig(t, natsURL(t), consumer(t, "nats")) },
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if name != "amqp" {
				testenv.SkipUnlessFull(t, "db-commit-lost and time kills on "+name)
			}
			cfg := mk(t)
			cfg.KillPoints = []KillPoint{{Kind: KillDBCommitLost, N: 1}, {Kind: KillTime, Delay: 30 * time.Millisecond}}
			rep := run(t, cfg)
			defer dumpOnFailure(t, rep)
			if rep.Verdict != VerdictPass {
				t.Fatalf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
			}
			for _, r := range rep.Rounds {
				if !r.KillReached || len(r.Attempts) < 2 {
					t.Errorf("round %s: reached %v, %d attempts; want the kill and a redelivery", r.KillPoint, r.KillReached, len(r.Attempts))
				}
			}
		})
	}
}

// The resend round on a broker: the same payment published again under a
// fresh message id. A key taken from the AMQP message id survives every
// redelivery (the kill round passes) and charges twice here.
func TestBrokerResendRound(t *testing.T) {
	t.Parallel()
	t.Run("amqp", func(t *testing.T) {
		t.Parallel()
		cfg := amqpConfig(t, consumer(t, "amqp")+" -key message-id")
		cfg.KillPoints = []KillPoint{{Kind: KillNone}, {Kind: KillResponse}, {Kind: KillResend}}
		rep := run(t, cfg)
		defer dumpOnFailure(t, rep)
		if !roundAt(t, rep, "response").Passed {
			t.Error("response round: the broker's redelivery keeps the message id, so the key holds")
		}
		r := roundAt(t, rep, "resend")
		if once := check(r, CheckEffectOnce); once.Passed || !strings.HasPrefix(once.Detail, "duplicated charge (2 effects") {
			t.Errorf("resend round: effect-once %+v, want duplicated charge", once)
		}
		if len(r.Resent) == 0 || maxDelivery(r) != 2 {
			t.Errorf("resend round: resent %+v, attempts %+v; want the message published again as delivery 2", r.Resent, r.Attempts)
		}
	})
	t.Run("nats", func(t *testing.T) {
		t.Parallel()
		nats := brokerConfig(t, natsURL(t), consumer(t, "nats")+" -key intent")
		nats.KillPoints = []KillPoint{{Kind: KillNone}, {Kind: KillResend}}
		if rep := run(t, nats); rep.Verdict != VerdictPass {
			t.Errorf("nats intent consumer: verdict %s on the resend round, failed %v", rep.Verdict, failedChecks(rep))
		}
	})
}

// When idemcheck's own broker connection drops, the end of the run
// connects again and deletes the queues or the stream; when it cannot,
// the error names them, and (RabbitMQ) their record stays for the next
// run.
func TestBrokerLostConnectionStillRemoves(t *testing.T) {
	ctx := context.Background()
	t.Run("amqp", func(t *testing.T) {
		raw := amqpURL(t)
		open := func() (*brokerTransport, *amqpBroker) {
			tr, err := openAMQP(ctx, &harness{cfg: Config{Delivery: Delivery{URL: raw}}})
			if err != nil {
				t.Fatal(err)
			}
			bt := tr.(*brokerTransport)
			return bt, bt.ops.(*amqpBroker)
		}
		declared := func(q string) bool {
			conn, err := amqp.Dial(raw)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ch, _ := conn.Channel()
			_, err = ch.QueueDeclarePassive(q, true, false, false, false, nil)
			return err == nil
		}
		bt, b := open()
		b.conn.Close() // the connection is lost
		if err := bt.close(); err != nil {
			t.Fatalf("close after a lost connection: %v", err)
		}
		for _, q := range []string{b.queue, b.dlq} {
			if declared(q) {
				t.Errorf("queue %s left after a lost connection", q)
			}
		}
		if _, err := os.Stat(b.record); !os.IsNotExist(err) {
			t.Errorf("queue record %s kept: %v", b.record, err)
		}

		bt, b = open()
		b.conn.Close()
		good := b.url
		b.url = "amqp://guest:guest@127.0.0.1:1/" // and the broker cannot be reached again
		err := bt.close()
		if err == nil || !strings.Contains(err.Error(), b.queue) || !strings.Contains(err.Error(), b.dlq) || strings.Contains(err.Error(), "guest:guest") {
			t.Errorf("err = %v, want it to name both queues, without the password", err)
		}
		if _, err := os.Stat(b.record); err != nil {
			t.Errorf("queue record gone: %v", err)
		}
		b.url = good
		if err := b.remove(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("nats", func(t *testing.T) {
		raw := natsURL(t)
		tr, err := openNATS(ctx, &harness{cfg: Config{Delivery: Delivery{URL: raw}}})
		if err != nil {
			t.Fatal(err)
		}
		bt := tr.(*brokerTransport)
		b := bt.ops.(*natsBroker)
		b.nc.Close()
		if err := bt.close(); err != nil {
			t.Fatalf("close after a lost connection: %v", err)
		}
		nc, err := nats.Connect(raw)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		js, _ := jetstream.New(nc)
		if _, err := js.Stream(ctx, b.stream); !errors.Is(err, jetstream.ErrStreamNotFound) {
			t.Errorf("stream %s after a lost connection: %v, want it deleted", b.stream, err)
		}
	})
}

// A round's reruns double the idle window for that round only: a consumer
// that never acknowledges costs each round two reruns, not a window that
// grows fourfold from round to round.
func TestBrokerRedoWindowIsPerRound(t *testing.T) {
	b := &brokerTransport{idle: time.Second}
	for round := 1; round <= 3; round++ {
		for redos, want := range []time.Duration{2 * time.Second, 4 * time.Second} {
			b.interrupted = true
			if !b.redo(redos) || b.quietWindow() != want {
				t.Fatalf("round %d, rerun %d: window %v, want %v", round, redos+1, b.quietWindow(), want)
			}
		}
		b.interrupted = true
		if b.redo(maxRedos) || b.quietWindow() != time.Second {
			t.Fatalf("round %d: after %d reruns the round stands with the configured window, got rerun with %v", round, maxRedos, b.quietWindow())
		}
	}
}

// raceNotRun names a concurrent round whose every write and effect request
// came from one consumer while no rendezvous was reached; a round where
// two consumers worked, or the copies met, raced.
func TestRaceNotRun(t *testing.T) {
	missed := []Rendezvous{{Point: PointFirstWrite, Deliveries: 2, Arrived: 1}}
	met := []Rendezvous{{Point: PointFirstWrite, Deliveries: 2, Arrived: 2, Reached: true}}
	oneWorked := []Attempt{{Delivery: 1, Writes: 3}, {Delivery: 2}}
	bothWorked := []Attempt{{Delivery: 1, Writes: 2}, {Delivery: 2, Writes: 1}}
	cases := []struct {
		name string
		r    Round
		want bool
	}{
		{"one consumer took both", Round{Rendezvous: missed, Attempts: oneWorked, EffectRequests: []EffectRequest{{Delivery: 1}}}, true},
		{"two consumers worked", Round{Rendezvous: missed, Attempts: bothWorked}, false},
		{"the copies met", Round{Rendezvous: met, Attempts: oneWorked}, false},
		{"the other sent a request", Round{Rendezvous: missed, Attempts: oneWorked, EffectRequests: []EffectRequest{{Delivery: 2}}}, false},
		{"no rendezvous", Round{Attempts: oneWorked}, false},
	}
	for _, c := range cases {
		if got := raceNotRun(c.r, 2) != ""; got != c.want {
			t.Errorf("%s: race not run = %v, want %v", c.name, got, c.want)
		}
	}
}
