//go:build !race

package derive

const raceEnabled = false
