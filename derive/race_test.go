//go:build race

package derive

// raceEnabled: the race detector instruments allocations, so allocation
// bounds do not hold under it.
const raceEnabled = true
