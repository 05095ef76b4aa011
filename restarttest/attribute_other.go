//go:build !linux

package restarttest

// senderGroup is Linux-only; elsewhere simultaneous deliveries' requests
// stay unattributed.
func senderGroup(string, int, string) (int, bool) { return 0, false }

// portListening is Linux-only; elsewhere the server's port is probed by
// connecting.
func portListening(int) (listening, known bool) { return false, false }
