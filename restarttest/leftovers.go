package restarttest

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// What a run leaves outside its process tree — its schema, its message
// file — names the run's owner (".PID.START", as the process markers do),
// so that the next run can remove it when the owner was killed with
// SIGKILL and could not clean up. What names no owner (a kept schema, a
// file of an older version) is left alone.

const (
	schemaCommentPrefix = "idemcheck restart-test run on host "
	schemaKeptComment   = "idemcheck restart-test schema kept with --keep"
	messageFilePrefix   = "idemcheck-message"
	tempDirPrefix       = "idemcheck-run"
)

// schemaComment marks the run's schema with its host and owner.
func schemaComment() string { return ownerComment() }

// sweepStaleSchemas drops the schemas of runs on this host whose owner is
// gone.
func (db *database) sweepStaleSchemas(ctx context.Context) {
	rows, err := db.admin.Query(ctx, `
select nspname, obj_description(oid, 'pg_namespace') from pg_namespace
where nspname like 'idemcheck\_rt\_%' and obj_description(oid, 'pg_namespace') like $1`, schemaCommentPrefix+"%")
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var name, comment string
		if rows.Scan(&name, &comment) == nil && ownerCommentGone(comment) {
			stale = append(stale, name)
		}
	}
	rows.Close()
	for _, name := range stale {
		// A lock still held by a dying backend must not stall this run.
		_ = pgx.BeginFunc(ctx, db.admin, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "set local lock_timeout = '1s'"); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "drop schema if exists "+pgx.Identifier{name}.Sanitize()+" cascade")
			return err
		})
	}
}

// createMessageFile creates the run's message file, named after its owner.
func createMessageFile() (*os.File, error) {
	return os.CreateTemp("", messageFilePrefix+procgroup.OwnerSuffix()+"-")
}

// sweepStaleMessageFiles removes the message files of runs whose owner is
// gone.
func sweepStaleMessageFiles() { sweepOwned(messageFilePrefix) }

// createTempDir creates the handlers' temporary directory, named after
// the run's owner.
func createTempDir() (string, error) {
	return os.MkdirTemp("", tempDirPrefix+procgroup.OwnerSuffix()+"-")
}

// sweepStaleTempDirs removes the handlers' temporary directories of runs
// whose owner is gone.
func sweepStaleTempDirs() { sweepOwned(tempDirPrefix) }

// sweepOwned removes the files and directories named PREFIX.PID.START-*
// in the temporary directory whose owner is gone.
func sweepOwned(prefix string) {
	paths, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+".*-*"))
	for _, p := range paths {
		rest := strings.TrimPrefix(filepath.Base(p), prefix)
		i := strings.LastIndexByte(rest, '-')
		if i > 0 && procgroup.OwnerGone(rest[:i]) {
			os.RemoveAll(p)
		}
	}
}
