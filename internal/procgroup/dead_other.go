//go:build unix && !linux

package procgroup

import "syscall"

// Dead reports whether pid names no process (without /proc, a zombie
// counts as alive).
func Dead(pid int) bool { return syscall.Kill(pid, 0) == syscall.ESRCH }
