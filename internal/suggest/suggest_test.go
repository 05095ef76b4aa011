package suggest

import "testing"

func TestClosest(t *testing.T) {
	flags := []string{"format", "tests", "tags", "explain", "config", "analyzer-flag"}
	for name, want := range map[string]string{
		"fromat":   "format", // swapped letters
		"formt":    "format",
		"FORMAT":   "format",
		"tag":      "tags",
		"expl":     "explain", // a prefix
		"analyzer": "analyzer-flag",
		"verbose":  "",
		"x":        "",
		"disabel":  "",
	} {
		if got := Closest(name, flags); got != want {
			t.Errorf("Closest(%q) = %q, want %q", name, got, want)
		}
	}
	if got := Closest("disabel", []string{"sources", "disable", "tables"}); got != "disable" {
		t.Errorf("Closest(disabel) = %q", got)
	}
}
