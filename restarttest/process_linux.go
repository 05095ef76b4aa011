//go:build linux

package restarttest

import "syscall"

// setParentDeathSignal makes the kernel kill the direct child if idemcheck
// itself dies without cleaning up (kill -9).
func setParentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
