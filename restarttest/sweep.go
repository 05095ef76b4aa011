package restarttest

import (
	"bytes"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// ownerSuffix names this process in the run marker as ".PID.STARTTIME", so
// a later run can tell that the run owning a marked process is gone.
func ownerSuffix() string { return procgroup.OwnerSuffix() }

// sweepMarked kills every process whose environment carries marker — what a
// handler left running outside its process group that the group's own
// sweep did not reach — and returns how many processes of the run escaped
// their group since the last sweep.
func sweepMarked(marker string) int {
	return procgroup.KillMarked(marker) + escapes.take(marker)
}

// sweepOrphaned kills every marked process whose owning run is no longer
// running (the owner's PID is gone or now names another process). Markers
// without an owner are left alone.
func sweepOrphaned() int { return procgroup.KillOrphanedMarked(runMarkerEnv) }

func hasEnvEntry(environ, entry []byte) bool {
	for _, kv := range bytes.Split(environ, []byte{0}) {
		if bytes.Equal(kv, entry) {
			return true
		}
	}
	return false
}
