//go:build !linux

package procgroup

// Markers are read from /proc, so they work on Linux only; elsewhere the
// process-group kill is the only cleanup.

// OwnerSuffix is "" outside Linux.
func OwnerSuffix() string { return "" }

// KillMarked is a no-op outside Linux.
func KillMarked(string) int { return 0 }

// KillOrphanedMarked is a no-op outside Linux.
func KillOrphanedMarked(string) int { return 0 }

// Marked finds nothing outside Linux.
func Marked(string) []int { return nil }
