//go:build linux

package procgroup

import (
	"strconv"
	"strings"
)

// OwnerGone reports whether the process named by an OwnerSuffix value
// (".PID.START") has ended: its PID is free, a zombie, or names a process
// started at another time. An empty or malformed suffix names nobody, and
// is never gone.
func OwnerGone(suffix string) bool {
	parts := strings.Split(suffix, ".")
	if len(parts) != 3 || parts[0] != "" {
		return false
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return false
	}
	p, ok := readProc(pid)
	return !ok || p.zombie || strconv.FormatUint(p.start, 10) != parts[2]
}

// Dead reports whether pid names no running process: free, or a zombie
// that nobody has reaped yet (a postmaster whose idemcheck was killed with
// SIGKILL stays one until init collects it, and kill(pid, 0) still
// succeeds on it).
func Dead(pid int) bool {
	p, ok := readProc(pid)
	return !ok || p.zombie
}
