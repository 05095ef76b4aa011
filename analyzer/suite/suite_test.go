package suite

import (
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestSuite(t *testing.T) {
	if err := analysis.Validate(Analyzers()); err != nil {
		t.Fatal(err)
	}
	rules := Rules()
	if len(rules) != len(ruleAnalyzers()) || rules[0].ID != "IDEM001" || Analyzers()[len(rules)].Name != "directives" {
		t.Fatalf("Rules() = %v", rules)
	}
	for _, r := range rules {
		if r.Title == "" || r.Why == "" || r.Fix == "" || r.Bad == "" || r.Good == "" {
			t.Errorf("%s: incomplete documentation", r.ID)
		}
	}
	if r, ok := Rule("idem001"); !ok || r.ID != "IDEM001" {
		t.Errorf("Rule(idem001) = %v, %v", r, ok)
	}
	if _, ok := Rule("IDEM999"); ok {
		t.Error("Rule(IDEM999) found")
	}
}
