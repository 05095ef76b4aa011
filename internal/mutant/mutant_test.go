package mutant

import (
	"strings"
	"testing"
)

const src = `package main

func main() {
	key := derive()
	// mutant:provider-key
	send(key)
	// mutant> send("")
	// mutant:end
	// mutant:frozen-row
	// mutant> payload = copy
	// mutant:end
}
`

func TestApply(t *testing.T) {
	files := map[string][]byte{"main.go": []byte(src), "setup.sql": []byte("create table t (\n  k text not null\n  -- mutant:unique-constraint\n  , primary key (k)\n  -- mutant:end\n);\n")}
	names, err := Names(files)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, " "); got != "frozen-row provider-key unique-constraint" {
		t.Errorf("names %q", got)
	}
	orig, _ := Apply(files, "")
	if got := string(orig["main.go"]); strings.Contains(got, "mutant") || !strings.Contains(got, "\tsend(key)\n") || strings.Contains(got, "payload") {
		t.Errorf("original:\n%s", got)
	}
	m, _ := Apply(files, "provider-key")
	if got := string(m["main.go"]); !strings.Contains(got, "\tsend(\"\")\n") || strings.Contains(got, "send(key)") {
		t.Errorf("provider-key:\n%s", got)
	}
	if got := string(m["setup.sql"]); !strings.Contains(got, "primary key") {
		t.Errorf("provider-key touched setup.sql:\n%s", got)
	}
	m, _ = Apply(files, "unique-constraint")
	if got := string(m["setup.sql"]); strings.Contains(got, "primary key") {
		t.Errorf("unique-constraint:\n%s", got)
	}
	m, _ = Apply(files, "frozen-row")
	if got := string(m["main.go"]); !strings.Contains(got, "\tpayload = copy\n") {
		t.Errorf("frozen-row:\n%s", got)
	}
}

func TestBadMarkers(t *testing.T) {
	for _, bad := range []string{"// mutant:end\n", "// mutant:a\n// mutant:b\n// mutant:end\n", "# mutant:a\nx\n"} {
		if _, err := Names(map[string][]byte{"f": []byte(bad)}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestEveryMutantNamesASafeguard(t *testing.T) {
	for _, s := range Safeguards {
		if len(s.Checks) == 0 || s.What == "" {
			t.Errorf("%s: no checks or description", s.Name)
		}
	}
}
