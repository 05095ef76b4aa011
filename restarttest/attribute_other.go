//go:build !linux

package restarttest

// senderGroup is Linux-only; elsewhere simultaneous deliveries' requests
// stay unattributed.
func senderGroup(string, int, string) (int, bool) { return 0, false }

// portListening is Linux-only; elsewhere the server's port is probed by
// connecting.
func portListening(int) (listening, known bool) { return false, false }

// portOwner is Linux-only; elsewhere a listener on the port is taken for
// the handler's once it started one.
func portOwner(int, string) (listening, ours bool, who string, known bool) {
	return false, false, "", false
}
