//go:build linux

package restarttest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// portOwner tells who listens on port: ours is true when a process of the
// run (carrying marker in its environment, or a descendant of idemcheck)
// holds the listening socket; otherwise who names the process that does,
// and is empty when no process this one may inspect holds it (a socket
// being released, or another user's). known is false when /proc cannot say.
func portOwner(port int, marker string) (listening, ours bool, who string, known bool) {
	inodes, known := listeningInodes(port)
	if !known || len(inodes) == 0 {
		return false, false, "", known
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true, false, "", false
	}
	needle := []byte(marker)
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !holdsSocket(pid, inodes) {
			continue
		}
		// A process marked by a run is that run's; an unmarked one (env -i
		// drops the marker) is ours when it descends from idemcheck.
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if hasEnvEntry(env, needle) || (!hasEnvPrefix(env, runMarkerEnv+"=") && descendsFrom(pid, self)) {
			return true, true, "", true
		}
		return true, false, describeProcess(pid), true
	}
	return true, false, "", true
}

// listeningInodes are the inodes of the TCP sockets listening on port at a
// loopback or wildcard address.
func listeningInodes(port int) (map[string]bool, bool) {
	inodes := map[string]bool{}
	known := false
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		known = true
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) < 10 || f[3] != "0A" {
				continue
			}
			i := strings.LastIndexByte(f[1], ':')
			if i < 0 {
				continue
			}
			p, err := strconv.ParseUint(f[1][i+1:], 16, 32)
			if err == nil && int(p) == port && loopbackOrAnyHex(f[1][:i]) {
				inodes["socket:["+f[9]+"]"] = true
			}
		}
	}
	return inodes, known
}

func hasEnvPrefix(environ []byte, prefix string) bool {
	for _, kv := range bytes.Split(environ, []byte{0}) {
		if bytes.HasPrefix(kv, []byte(prefix)) {
			return true
		}
	}
	return false
}

func holdsSocket(pid int, inodes map[string]bool) bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && inodes[link] {
			return true
		}
	}
	return false
}

// descendsFrom follows the parent links of pid up to ancestor.
func descendsFrom(pid, ancestor int) bool {
	for i := 0; i < 64 && pid > 1; i++ {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			return false
		}
		j := bytes.LastIndexByte(stat, ')')
		if j < 0 {
			return false
		}
		f := strings.Fields(string(stat[j+1:]))
		if len(f) < 2 {
			return false
		}
		if pid, err = strconv.Atoi(f[1]); err != nil {
			return false
		}
		if pid == ancestor {
			return true
		}
	}
	return false
}

// describeProcess is "pid 1234 (python3 app.py)", the command line cut short.
func describeProcess(pid int) string {
	cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	line := strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " "))
	if line == "" {
		comm, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "comm"))
		line = strings.TrimSpace(string(comm))
	}
	if r := []rune(line); len(r) > 80 {
		line = string(r[:80]) + "…"
	}
	return fmt.Sprintf("pid %d (%s)", pid, line)
}
