package restarttest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// What a run creates on a broker carries the run's owner, so the next run
// removes it when the run was killed with SIGKILL. A JetStream stream
// says it in its description, and the next run lists the streams. AMQP
// cannot list queues (that needs the management plugin): the queue's name
// carries the owner, and a file in the temporary directory, named after
// the owner like the message file, lists the run's queues with their
// broker's address; the next run against that broker deletes them.

const amqpRecordPrefix = "idemcheck-amqp"

// amqpServer names a RabbitMQ server and virtual host, without
// credentials: what a queue record is matched on.
func amqpServer(raw string) string {
	u, err := amqp.ParseURI(raw)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s:%d/%s", u.Host, u.Port, u.Vhost)
}

// recordQueues writes the run's queue record: the server, then one queue
// a line.
func recordQueues(server string, queues ...string) (string, error) {
	f, err := os.CreateTemp("", amqpRecordPrefix+procgroup.OwnerSuffix()+"-")
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(server + "\n" + strings.Join(queues, "\n") + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// sweepStaleQueues deletes the queues recorded by runs whose owner is gone
// that live on this server, and their records. Records of other servers
// wait for a run against theirs.
func (b *amqpBroker) sweepStaleQueues() {
	server := amqpServer(b.url)
	files, _ := filepath.Glob(filepath.Join(os.TempDir(), amqpRecordPrefix+".*-*"))
	for _, f := range files {
		rest := strings.TrimPrefix(filepath.Base(f), amqpRecordPrefix)
		i := strings.LastIndexByte(rest, '-')
		if i <= 0 || !procgroup.OwnerGone(rest[:i]) {
			continue
		}
		lines := readLines(f)
		if len(lines) == 0 || lines[0] != server {
			continue
		}
		ok := true
		for _, q := range lines[1:] {
			ok = b.deleteQueue(q) == nil && ok
		}
		if ok {
			os.Remove(f)
		}
	}
}

// deleteQueue deletes q; one that is not there is no error.
func (b *amqpBroker) deleteQueue(q string) error {
	ch, err := b.channel()
	if err != nil {
		return err
	}
	if _, err := ch.QueueDelete(q, false, false, false); err != nil {
		var ae *amqp.Error
		if errors.As(err, &ae) && ae.Code == amqp.NotFound {
			return nil
		}
		return fmt.Errorf("delete queue %s: %v", q, amqpErrorText(err))
	}
	return nil
}

func readLines(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// streamDescription marks a run's stream with its host and owner.
func streamDescription() string {
	if c := ownerComment(); c != "" {
		return c + streamDescriptionEnd
	}
	return "idemcheck restart-test run" + streamDescriptionEnd
}

const streamDescriptionEnd = "; deleted at the end"

// sweepStaleStreams deletes the streams of runs on this host whose owner
// is gone.
func (b *natsBroker) sweepStaleStreams(ctx context.Context) {
	var stale []string
	list := b.js.ListStreams(ctx)
	for info := range list.Info() {
		desc := strings.TrimSuffix(info.Config.Description, streamDescriptionEnd)
		if strings.HasPrefix(info.Config.Name, natsStreamPrefix) && ownerCommentGone(desc) {
			stale = append(stale, info.Config.Name)
		}
	}
	for _, name := range stale {
		_ = b.js.DeleteStream(ctx, name) // another run may sweep it at once
	}
}
