package reach

import "testing"

// A chain of n functions, each judged from what the next one says, in the
// worst order (callers first): the worklist judges each at most twice,
// where rounds over the whole package judged n² times.
func TestWorklistIsLinearOnAChain(t *testing.T) {
	const n = 2000
	items := make([]int, n)
	for i := range items {
		items[i] = i
	}
	known := make([]bool, n)
	judged := 0
	worklist(items, func(i int) []int {
		judged++
		if known[i] || i < n-1 && !known[i+1] {
			return nil // nothing new: the next one is not known yet
		}
		known[i] = true
		if i > 0 {
			return []int{i - 1} // its caller depends on it
		}
		return nil
	})
	for i, k := range known {
		if !k {
			t.Fatalf("function %d was never known: the fixed point was not reached", i)
		}
	}
	if judged > 2*n {
		t.Errorf("judged %d times for %d functions, want at most %d", judged, n, 2*n)
	}
}
