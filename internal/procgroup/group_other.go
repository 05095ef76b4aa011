//go:build !unix

package procgroup

import "syscall"

func supported() error { return ErrUnsupported }

func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

func killGroup(int) {}
