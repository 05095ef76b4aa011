//go:build !linux

package procgroup

import "syscall"

// Outside Linux there is no /proc to follow parent links in: the process
// group kill is the only cleanup, and a child that called setsid survives.

func becomeSubreaper()                 {}
func track(*Group)                     {}
func untrack(*Group)                   {}
func recordMembers(*Group)             {}
func killEscapees(*Group) map[int]bool { return nil }

// SetParentDeathSignal is a no-op outside Linux.
func SetParentDeathSignal(*syscall.SysProcAttr) {}

// KillStrays is a no-op outside Linux.
func KillStrays() int { return 0 }

// pipesHeld cannot look at other processes' descriptors outside Linux: the
// output staying open past heldGrace is taken as held.
func pipesHeld(*Group) bool { return true }
