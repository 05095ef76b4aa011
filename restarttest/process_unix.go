//go:build unix

package restarttest

import "syscall"

func groupSysProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(attr)
	return attr
}

func signalGroup(pgid int) error { return syscall.Kill(-pgid, syscall.SIGKILL) }
func supported() error           { return nil }
