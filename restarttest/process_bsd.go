//go:build unix && !linux

package restarttest

import "syscall"

func setParentDeathSignal(*syscall.SysProcAttr) {}
