//go:build linux

package procgroup

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Environment markers complement the process tree: they find the commands
// of a run that was itself killed with SIGKILL (its subreaper is gone, its
// escapees now belong to init), when the next run starts. A marker is
// NAME=RANDOM.PID.START, where PID and START name the owning process.

// OwnerSuffix is ".PID.START" for this process, to end a marker's value
// with, or "" when /proc cannot tell our start time.
func OwnerSuffix() string {
	p, ok := readProc(selfPid)
	if !ok {
		return ""
	}
	return "." + strconv.Itoa(selfPid) + "." + strconv.FormatUint(p.start, 10)
}

// KillMarked kills every process whose environment holds entry (NAME=VALUE)
// and returns how many it killed.
func KillMarked(entry string) int {
	killed := 0
	for _, pid := range Marked(entry) {
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed++
		}
	}
	return killed
}

// KillOrphanedMarked kills every process carrying a NAME=RANDOM.PID.START
// marker whose owner is gone (the PID is free or names a process started at
// another time). Markers without an owner are left alone.
func KillOrphanedMarked(name string) int {
	prefix := []byte(name + "=")
	return killEnv(func(env [][]byte) bool {
		for _, kv := range env {
			if !bytes.HasPrefix(kv, prefix) {
				continue
			}
			parts := strings.Split(string(kv[len(prefix):]), ".")
			if len(parts) != 3 {
				return false
			}
			owner, err := strconv.Atoi(parts[1])
			if err != nil {
				return false
			}
			p, ok := readProc(owner)
			return !ok || p.zombie || strconv.FormatUint(p.start, 10) != parts[2]
		}
		return false
	})
}

// killEnv kills every other process whose environment matches.
func killEnv(match func(env [][]byte) bool) int {
	killed := 0
	for _, pid := range findEnv(match) {
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed++
		}
	}
	return killed
}

// Marked returns the processes whose environment holds entry (NAME=VALUE).
func Marked(entry string) []int {
	return findEnv(func(env [][]byte) bool {
		for _, kv := range env {
			if string(kv) == entry {
				return true
			}
		}
		return false
	})
}

// findEnv returns every other process whose environment matches.
func findEnv(match func(env [][]byte) bool) []int {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	var pids []int
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == selfPid {
			continue
		}
		env, err := os.ReadFile("/proc/" + name + "/environ")
		if err == nil && match(bytes.Split(env, []byte{0})) {
			pids = append(pids, pid)
		}
	}
	return pids
}
