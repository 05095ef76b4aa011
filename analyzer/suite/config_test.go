package suite

import (
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

func TestEveryAnalyzerHasItsRuleAndConfigFlag(t *testing.T) {
	rules := Rules()
	if len(rules) != 7 {
		t.Fatalf("%d rules, want IDEM001-IDEM007", len(rules))
	}
	for i, a := range ruleAnalyzers() {
		r := entries[i].rule
		if r.ID != a.Name {
			t.Errorf("%s is the documentation of analyzer %q: an analyzer is named after its rule", r.ID, a.Name)
		}
		if r.Title == "" || r.Why == "" || r.Bad == "" || r.Good == "" {
			t.Errorf("%s: incomplete documentation", r.ID)
		}
		if a.Flags.Lookup(config.FlagName) == nil {
			t.Errorf("%s has no -%s flag: go vet could not pass it the configuration", a.Name, config.FlagName)
		}
	}
	if _, ok := Rule("idem005"); !ok {
		t.Error("Rule lookup is case-insensitive")
	}
}

func TestEnabledAndModel(t *testing.T) {
	c, err := config.Parse([]byte(`
sources: [{package: github.com/acme/ids, function: Draw}]
sinks: [{field: OpRef}]
barriers: [{package: github.com/acme/store, function: Load.*}]
key_name: opref
disable: [IDEM001, IDEM005]
`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range Enabled(c) {
		names = append(names, a.Name)
	}
	if len(names) != 6 || names[0] != "IDEM002" || names[5] != "directives" {
		t.Errorf("enabled = %v", names)
	}
	if len(Enabled(nil)) != 8 {
		t.Error("nil config must enable every rule")
	}
	m, err := keymodel.New(c)
	if err != nil {
		t.Fatal(err)
	}
	if kind, _, ok := m.Source("github.com/acme/ids", "", "Draw"); !ok || kind != "" {
		t.Error("configured source")
	}
	if !m.SinkField("any/pkg", "OpRef") || !m.Barrier("github.com/acme/store", "", "LoadIntent") || m.Barrier("github.com/acme/store", "", "XLoad") {
		t.Error("configured sink field or barrier")
	}
	if !m.Keys.Match("op_ref") || !m.Keys.Match("idempotencyKey") {
		t.Error("key_name must extend the default key pattern")
	}
}
