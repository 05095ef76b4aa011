//go:build linux

package restarttest

import (
	"bufio"
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// senderGroup finds the process group of the local process that owns the
// client end of a TCP connection to our server: the connection's inode from
// /proc/net/tcp*, then the process (carrying marker in its environment)
// holding that socket. It lets simultaneous deliveries' effect requests be
// told apart.
func senderGroup(remoteAddr string, serverPort int, marker string) (int, bool) {
	_, portText, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		return 0, false
	}
	clientPort, err := strconv.Atoi(portText)
	if err != nil {
		return 0, false
	}
	inode := socketInode(clientPort, serverPort)
	if inode == "" {
		return 0, false
	}
	target := "socket:[" + inode + "]"
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	needle := []byte(marker)
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		env, err := os.ReadFile(filepath.Join(dir, "environ"))
		if err != nil || !hasEnvEntry(env, needle) {
			continue
		}
		fds, err := os.ReadDir(filepath.Join(dir, "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if link, err := os.Readlink(filepath.Join(dir, "fd", fd.Name())); err == nil && link == target {
				return processGroup(dir)
			}
		}
	}
	return 0, false
}

// socketInode returns the inode of the TCP socket from local port
// clientPort to remote port serverPort.
func socketInode(clientPort, serverPort int) string {
	want := func(addr string, port int) bool {
		i := strings.LastIndexByte(addr, ':')
		if i < 0 {
			return false
		}
		p, err := strconv.ParseUint(addr[i+1:], 16, 32)
		return err == nil && int(p) == port
	}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) > 9 && want(f[1], clientPort) && want(f[2], serverPort) {
				return f[9]
			}
		}
	}
	return ""
}

func processGroup(procDir string) (int, bool) {
	stat, err := os.ReadFile(filepath.Join(procDir, "stat"))
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 3 {
		return 0, false
	}
	pgid, err := strconv.Atoi(f[2])
	return pgid, err == nil
}

// portListening reports whether a TCP socket listens on port at a loopback
// or wildcard address, read from /proc/net/tcp* rather than by connecting:
// a probe connection would reach a naive server (socat … fork, nc -l in a
// loop) as a request of its own. known is false when the tables are not
// readable.
func portListening(port int) (listening, known bool) {
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		known = true
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) < 4 || f[3] != "0A" { // 0A is TCP_LISTEN
				continue
			}
			i := strings.LastIndexByte(f[1], ':')
			if i < 0 {
				continue
			}
			p, err := strconv.ParseUint(f[1][i+1:], 16, 32)
			if err == nil && int(p) == port && loopbackOrAnyHex(f[1][:i]) {
				return true, true
			}
		}
	}
	return false, known
}

// loopbackOrAnyHex reads an address as /proc/net/tcp* prints it (32-bit
// words in host order; assumes little-endian, as every Linux Go targets in
// practice but s390x and ppc64) and tells whether a client on 127.0.0.1 or ::1
// reaches it.
func loopbackOrAnyHex(h string) bool {
	switch strings.ToUpper(h) {
	case "00000000", strings.Repeat("0", 32), "00000000000000000000000001000000":
		return true
	}
	switch len(h) {
	case 8: // 127.x.y.z: the first octet is the last byte
		return strings.EqualFold(h[6:], "7F")
	case 32: // ::ffff:127.x.y.z
		return strings.EqualFold(h[:24], "0000000000000000FFFF0000") && strings.EqualFold(h[30:], "7F")
	}
	return false
}
