//go:build !linux

package restarttest

// sweepMarked is Linux-only (it reads /proc); elsewhere the process-group
// kill is the only cleanup.
func sweepMarked(string) int { return 0 }

func ownerSuffix() string { return "" }

func sweepOrphaned() int { return 0 }
