package english

import "testing"

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 writes", 1: "1 write", 2: "2 writes"} {
		if got := Plural(n, "write"); got != want {
			t.Errorf("Plural(%d, write) = %q, want %q", n, got, want)
		}
	}
	if got := Plural(3, "process"); got != "3 processes" {
		t.Errorf("Plural(3, process) = %q", got)
	}
}
