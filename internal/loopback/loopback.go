// Package loopback picks TCP ports on 127.0.0.1 for the servers idemcheck
// starts (the embedded PostgreSQL, test handlers).
package loopback

import "net"

// FreePort is a TCP port on 127.0.0.1 that was free a moment ago: another
// process may take it before the caller listens, so callers that hand it
// to a server retry on a taken port.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
