//go:build linux

package restarttest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// sweepMarked kills every process whose environment carries marker: what a
// handler left running outside its process group (setsid, a daemon that
// double-forked). It returns how many it killed.
func sweepMarked(marker string) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	needle := []byte(marker)
	self := os.Getpid()
	killed := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !hasEnvEntry(env, needle) {
			continue
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed++
		}
	}
	return killed
}

func hasEnvEntry(environ, entry []byte) bool {
	for _, kv := range bytes.Split(environ, []byte{0}) {
		if bytes.Equal(kv, entry) {
			return true
		}
	}
	return false
}

// ownerSuffix names this process in the run marker as ".PID.STARTTIME", so
// a later run can tell that the run owning a marked process is gone.
func ownerSuffix() string {
	pid := os.Getpid()
	start, ok := processStart(pid)
	if !ok {
		return ""
	}
	return "." + strconv.Itoa(pid) + "." + start
}

// processStart is the start time of pid (field 22 of /proc/PID/stat), which
// tells a live owner from a later process that reused its PID.
func processStart(pid int) (string, bool) {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return "", false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return "", false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 20 || f[0] == "Z" { // a zombie owner is gone too
		return "", false
	}
	return f[19], true
}

// sweepOrphaned kills every marked process whose owning run is no longer
// running (the owner's PID is gone or now names another process). Markers
// without an owner are left alone.
func sweepOrphaned() int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	prefix := []byte(runMarkerEnv + "=")
	killed := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if !bytes.HasPrefix(kv, prefix) {
				continue
			}
			parts := strings.Split(string(kv[len(prefix):]), ".")
			if len(parts) != 3 {
				break
			}
			owner, err := strconv.Atoi(parts[1])
			if err != nil {
				break
			}
			if start, alive := processStart(owner); !alive || start != parts[2] {
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed++
				}
			}
			break
		}
	}
	return killed
}
