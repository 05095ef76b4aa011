//go:build !linux

package restarttest

// senderGroup is Linux-only; elsewhere simultaneous deliveries' requests
// stay unattributed.
func senderGroup(string, int, string) (int, bool) { return 0, false }
