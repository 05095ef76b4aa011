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

func TestUnique(t *testing.T) {
	rules := []string{"IDEM001", "IDEM002", "IDEM003", "IDEM004", "IDEM005", "IDEM006", "IDEM007"}
	for name, want := range map[string]string{
		"IDEM010": "IDEM001", // swapped digits: the only rule one edit away
		"IDEM070": "IDEM007",
		"IDEM009": "", // one edit from every rule: no guess
		"IDEM999": "",
	} {
		if got := Unique(name, rules); got != want {
			t.Errorf("Unique(%q) = %q, want %q", name, got, want)
		}
	}
}
