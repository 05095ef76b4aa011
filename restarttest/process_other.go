//go:build !unix

package restarttest

import (
	"errors"
	"syscall"
)

// errUnsupported is returned on systems without process groups.
var errUnsupported = errors.New("restart-test needs a Unix system (process groups, sh)")

func groupSysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

func signalGroup(int) error { return errUnsupported }
func supported() error      { return errUnsupported }
