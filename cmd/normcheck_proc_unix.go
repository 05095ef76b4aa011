//go:build unix

package cmd

import (
	"os/exec"
	"syscall"
)

// startProcessGroup makes the command lead its own process group, so a
// timeout can kill it with every child it started.
func startProcessGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the command's whole process group; a group that
// is already gone is fine.
func killProcessGroup(c *exec.Cmd) {
	if c.Process != nil {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
}
