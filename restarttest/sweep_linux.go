//go:build linux

package restarttest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
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
