//go:build linux

package restarttest

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// tcpClients returns the TCP connections that the processes carrying
// marker hold to port on this host: their local port, mapped to the
// process. /proc/PID/fd names each socket by inode; /proc/net/tcp and
// tcp6 give an inode's addresses.
func tcpClients(marker string, port int) map[int]int {
	inodes := map[string]int{}
	for _, pid := range procgroup.Marked(marker) {
		dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink(dir + fd.Name())
			if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
				inodes[strings.TrimSuffix(inode, "]")] = pid
			}
		}
	}
	clients := map[int]int{}
	if len(inodes) == 0 {
		return clients
	}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			fl := strings.Fields(sc.Text())
			if len(fl) < 10 || fl[3] != "01" { // 01: ESTABLISHED
				continue
			}
			pid, mine := inodes[fl[9]]
			if !mine || hexPort(fl[2]) != port {
				continue
			}
			clients[hexPort(fl[1])] = pid
		}
		f.Close()
	}
	return clients
}

// hexPort reads the port of a /proc/net/tcp address (ADDR:PORT in hex).
func hexPort(addr string) int {
	i := strings.LastIndexByte(addr, ':')
	p, err := strconv.ParseUint(addr[i+1:], 16, 16)
	if err != nil {
		return -1
	}
	return int(p)
}

// processName is the command name of pid.
func processName(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b))
}
