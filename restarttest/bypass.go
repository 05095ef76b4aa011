package restarttest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// A handler that connects to the database server itself, not through
// DATABASE_URL, escapes the proxy: its writes are neither counted nor
// killed, and it logs in as whatever user it names. During each round the
// harness looks for TCP connections of the handler's processes (those
// carrying the run marker) to the server's port; a backend in
// pg_stat_activity whose client port is one of theirs makes the run an
// environment error. A connection that lasts less than bypassPoll, or one
// over a unix socket, is not seen.

const bypassPoll = 200 * time.Millisecond

// watchBypass looks for such connections until the returned stop is
// called, and once more then.
func (h *harness) watchBypass() (stop func()) {
	if strings.HasPrefix(h.db.cfg.Host, "/") || h.db.cfg.Port == 0 {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(bypassPoll)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				h.checkBypass()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			<-finished
			h.checkBypass()
		})
	}
}

// checkBypass records the backends whose client is a handler process.
func (h *harness) checkBypass() {
	clients := tcpClients(h.marker, int(h.db.cfg.Port))
	if len(clients) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, h.cfg.DSN) // not admin: that one is busy elsewhere
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	ports := slices.Collect(maps.Keys(clients))
	rows, err := conn.Query(ctx, "select client_port, coalesce(usename, '') from pg_stat_activity where client_port = any($1)", ports)
	if err != nil {
		return
	}
	defer rows.Close()
	for rows.Next() {
		var port int
		var user string
		if rows.Scan(&port, &user) == nil {
			pid := clients[port]
			h.db.guard.recordBypass(fmt.Sprintf("process %d (%s) as database user %s", pid, processName(pid), user))
		}
	}
}
