//go:build !linux

package procgroup

// OwnerGone is false outside Linux: there is no /proc to tell.
func OwnerGone(string) bool { return false }
