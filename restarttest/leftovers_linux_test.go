//go:build linux

package restarttest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"
)

const (
	killedRunReadyEnv = "IDEMCHECK_KILLED_RUN_READY"
	killedRunAMQPEnv  = "IDEMCHECK_KILLED_RUN_AMQP"
	killedRunNATSEnv  = "IDEMCHECK_KILLED_RUN_NATS"
)

// TestKilledRunHelper is the run that the TestNextRunRemoves… tests kill:
// it only runs in the child process. With broker URLs it runs a RabbitMQ
// and a NATS run beside the plain one, each handler touching its own
// ready file once started.
func TestKilledRunHelper(t *testing.T) {
	ready := os.Getenv(killedRunReadyEnv)
	if ready == "" {
		t.Skip("the run killed by TestNextRunRemovesWhatAKilledRunLeft")
	}
	var wg sync.WaitGroup
	start := func(name, deliver string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = Run(context.Background(), Config{
				Handler:    "touch " + ready + "." + name + "; sleep 300",
				Delivery:   Delivery{URL: deliver},
				Message:    []byte(`{}`),
				Setup:      "create table t (id int);",
				KillPoints: []KillPoint{{Kind: KillNone}},
				Timeout:    5 * time.Minute,
				DSN:        dsn(t),
			})
		}()
	}
	start("plain", "")
	for name, env := range map[string]string{"amqp": killedRunAMQPEnv, "nats": killedRunNATSEnv} {
		if u := os.Getenv(env); u != "" {
			start(name, u)
		}
	}
	wg.Wait()
}

// killedRun starts TestKilledRunHelper in a child process and waits until
// each of its runs has started its handler.
func killedRun(t *testing.T, brokers map[string]string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(t.TempDir(), "ready")
	child := exec.Command(exe, "-test.run=^TestKilledRunHelper$")
	child.Env = append(os.Environ(), killedRunReadyEnv+"="+ready, "IDEMCHECK_TEST_DATABASE="+dsn(t))
	names := []string{"plain"}
	for name, env := range map[string]string{"amqp": killedRunAMQPEnv, "nats": killedRunNATSEnv} {
		if u := brokers[name]; u != "" {
			child.Env = append(child.Env, env+"="+u)
			names = append(names, name)
		}
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
	for _, name := range names {
		for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(ready + "." + name); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the child's %s run never started its handler", name)
			}
		}
	}
	return child
}

// leftovers counts what the run of process pid left: schemas, roles,
// message files, handler temporary directories, RabbitMQ queues (those
// its queue records name and that are still declared) and NATS streams.
type leftovers struct {
	schemas, roles, files, dirs, queues, streams int
}

func countLeftovers(t *testing.T, pid int, brokers map[string]string) leftovers {
	t.Helper()
	ctx := context.Background()
	owner := "% owner ." + strconv.Itoa(pid) + ".%"
	c, err := pgx.Connect(ctx, dsn(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var l leftovers
	err = c.QueryRow(ctx, `select
		(select count(*) from pg_namespace where nspname like 'idemcheck\_rt\_%' and obj_description(oid, 'pg_namespace') like $1),
		(select count(*) from pg_roles where rolname like 'idemcheck\_rt\_%' and shobj_description(oid, 'pg_authid') like $1)`,
		owner).Scan(&l.schemas, &l.roles)
	if err != nil {
		t.Fatal(err)
	}
	mine := func(prefix string) []string {
		m, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"."+strconv.Itoa(pid)+".*-*"))
		return m
	}
	l.files, l.dirs = len(mine(messageFilePrefix)), len(mine(tempDirPrefix))
	if u := brokers["amqp"]; u != "" {
		conn, err := amqp.Dial(u)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		for _, rec := range mine(amqpRecordPrefix) {
			for _, q := range readLines(rec)[1:] {
				ch, err := conn.Channel()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := ch.QueueDeclarePassive(q, true, false, false, false, nil); err == nil {
					l.queues++
					ch.Close()
				}
			}
		}
	}
	if u := brokers["nats"]; u != "" {
		nc, err := nats.Connect(u)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		js, _ := jetstream.New(nc)
		list := js.ListStreams(ctx)
		for info := range list.Info() {
			if strings.Contains(info.Config.Description, " owner ."+strconv.Itoa(pid)+".") {
				l.streams++
			}
		}
	}
	return l
}

// A run killed with SIGKILL leaves its schema, role, message file and
// temporary directory; the next run removes them, and leaves a live run's
// alone.
func TestNextRunRemovesWhatAKilledRunLeft(t *testing.T) {
	child := killedRun(t, nil)
	pid := child.Process.Pid
	live := leftovers{schemas: 1, roles: 1, files: 1, dirs: 1}
	if l := countLeftovers(t, pid, nil); l != live {
		t.Fatalf("the live child run has %+v, want %+v", l, live)
	}
	// A live run's leftovers are not touched by another run.
	// Nothing to judge (no effect request), but the sweep has run.
	runNoVerdict(t, Config{Handler: "exit 0", Message: []byte(`{}`), KillPoints: []KillPoint{{Kind: KillNone}}, DSN: dsn(t)})
	if l := countLeftovers(t, pid, nil); l != live {
		t.Fatalf("another run removed a live run's leftovers: %+v", l)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	runNoVerdict(t, Config{Handler: "exit 0", Message: []byte(`{}`), KillPoints: []KillPoint{{Kind: KillNone}}, DSN: dsn(t)})
	if l := countLeftovers(t, pid, nil); l != (leftovers{}) {
		t.Errorf("after the next run, the killed run still has %+v", l)
	}
}

// The same with brokers: the killed process ran a RabbitMQ and a NATS run
// beside the plain one. One more run against each broker leaves no queue,
// stream, schema, role, file or directory of it.
func TestNextRunRemovesWhatAKilledBrokerRunLeft(t *testing.T) {
	brokers := map[string]string{"amqp": amqpURL(t), "nats": natsURL(t)}
	child := killedRun(t, brokers)
	pid := child.Process.Pid
	live := leftovers{schemas: 3, roles: 3, files: 3, dirs: 3, queues: 2, streams: 1}
	if l := countLeftovers(t, pid, brokers); l != live {
		t.Fatalf("the live child runs have %+v, want %+v", l, live)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	for _, deliver := range []string{brokers["amqp"], brokers["nats"]} {
		cfg := brokerConfig(t, deliver, "exit 0")
		cfg.KillPoints, cfg.MaxAttempts = []KillPoint{{Kind: KillNone}}, 1
		_, _ = Run(context.Background(), cfg) // fails on its own: the sweep is what counts
	}
	if l := countLeftovers(t, pid, brokers); l != (leftovers{}) {
		t.Errorf("after one more run against each broker, the killed runs still have %+v", l)
	}
	if recs, _ := filepath.Glob(filepath.Join(os.TempDir(), amqpRecordPrefix+"."+strconv.Itoa(pid)+".*-*")); len(recs) != 0 {
		t.Errorf("queue records left: %v", recs)
	}
}
