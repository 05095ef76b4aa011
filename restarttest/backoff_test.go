package restarttest

import (
	"testing"
	"time"
)

// The backoff doubles up to MaxBackoff and stays there: after a hundred
// redeliveries it has not overflowed into a negative wait (which would
// redeliver in a busy loop) nor grown into hours.
func TestBackoffStopsDoubling(t *testing.T) {
	c := Config{Backoff: time.Millisecond}
	b := c.Backoff
	for range 100 {
		b = c.nextBackoff(b)
		if b <= 0 || b > MaxBackoff {
			t.Fatalf("backoff %v", b)
		}
	}
	if b != MaxBackoff {
		t.Errorf("after 100 doublings: %v, want %v", b, MaxBackoff)
	}
	// A backoff configured above the cap is kept, not cut.
	c = Config{Backoff: time.Minute}
	if b := c.nextBackoff(c.Backoff); b != time.Minute {
		t.Errorf("configured 1m: next %v", b)
	}
}
