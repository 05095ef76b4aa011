//go:build !unix

package cmd

import "os/exec"

// startProcessGroup has no process groups to set up outside Unix.
func startProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the command itself; children it started may
// survive outside Unix.
func killProcessGroup(c *exec.Cmd) {
	if c.Process != nil {
		_ = c.Process.Kill()
	}
}
