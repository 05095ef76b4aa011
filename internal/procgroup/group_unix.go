//go:build unix

package procgroup

import "syscall"

func supported() error { return nil }

func groupAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	SetParentDeathSignal(attr)
	return attr
}

// killGroup sends SIGKILL to the process group; a group already gone is fine.
func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}
