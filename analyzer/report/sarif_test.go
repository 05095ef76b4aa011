package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/idemcheck/idemcheck/analyzer/ruledoc"
)

var sarifFindings = []Finding{
	{
		Rule: "IDEM001", File: "handlers/pay.go", Line: 41, Column: 9,
		Message: "idempotency key built from uuid.NewString (random per attempt); a redelivery computes a different key",
		Related: []Related{
			{File: "handlers/pay.go", Line: 33, Column: 7, Message: "uuid.NewString: random per attempt"},
			{File: "internal/keys/keys.go", Line: 12, Column: 2, Message: "passed to keys.Derive"},
		},
	},
	{Rule: "IDEM003", File: "handlers/refund.go", Line: 7, Column: 30, Message: "float64 value o.Total reaches the idempotency key"},
}

var sarifRules = []ruledoc.Rule{
	{ID: "IDEM001", Title: "per-attempt value in an idempotency key", Why: "why\nacross lines", Fix: "derive it from the intent", Bad: "k := uuid.NewString()", Good: "k := intent.Key"},
	{ID: "IDEM003", Title: "float in an idempotency key", Why: "0.1 + 0.2", Bad: "bad", Good: "good"},
}

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	sch := sarifSchema(t)
	for name, fs := range map[string][]Finding{"findings": sarifFindings, "empty": nil} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSARIF(&buf, Result{Findings: fs}, sarifRules, Tool{Name: "idemcheck", Version: "1.2.3", InformationURI: "https://github.com/idemcheck/idemcheck"}); err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Fatalf("SARIF output does not validate: %v\n%s", err, buf.String())
			}
		})
	}
}

func TestSARIFSchemaRejectsBrokenLog(t *testing.T) {
	// Guards the test above: the schema must actually catch mistakes.
	sch := sarifSchema(t)
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":"2.1.0","runs":[{"tool":{"driver":{}},"results":[]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err == nil {
		t.Fatal("a driver without a name validated")
	}
}

func TestSARIFContent(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, Result{Findings: sarifFindings}, sarifRules, Tool{Name: "idemcheck", InformationURI: "https://github.com/idemcheck/idemcheck"}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID               string `json:"id"`
						ShortDescription struct{ Text string }
						FullDescription  struct{ Text string }
						Help             struct{ Text, Markdown string }
						HelpURI          string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct{ StartLine, StartColumn int }
					} `json:"physicalLocation"`
				} `json:"locations"`
				RelatedLocations []struct {
					ID      int `json:"id"`
					Message struct{ Text string }
				} `json:"relatedLocations"`
				CodeFlows []struct {
					ThreadFlows []struct {
						Locations []json.RawMessage `json:"locations"`
					} `json:"threadFlows"`
				} `json:"codeFlows"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "idemcheck" || len(run.Tool.Driver.Rules) != 2 {
		t.Fatalf("driver %+v", run.Tool.Driver)
	}
	r0 := run.Tool.Driver.Rules[0]
	if r0.ID != "IDEM001" || r0.ShortDescription.Text != "per-attempt value in an idempotency key" ||
		r0.FullDescription.Text != "why across lines" || !strings.Contains(r0.Help.Text, "k := intent.Key") || !strings.Contains(r0.Help.Markdown, "```go") {
		t.Errorf("rule 0 = %+v", r0)
	}
	if run.Tool.Driver.Rules[1].HelpURI == "" {
		t.Error("helpUri missing")
	}
	if len(run.Results) != 2 {
		t.Fatalf("%d results", len(run.Results))
	}
	res := run.Results[0]
	loc := res.Locations[0].PhysicalLocation
	if res.RuleID != "IDEM001" || res.RuleIndex != 0 || loc.ArtifactLocation.URI != "handlers/pay.go" ||
		loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartLine != 41 || loc.Region.StartColumn != 9 {
		t.Errorf("result 0 = %+v", res)
	}
	if len(res.RelatedLocations) != 2 || res.RelatedLocations[0].ID != 1 || res.RelatedLocations[1].Message.Text != "passed to keys.Derive" {
		t.Errorf("related = %+v", res.RelatedLocations)
	}
	if len(res.CodeFlows) != 1 || len(res.CodeFlows[0].ThreadFlows[0].Locations) != 3 {
		t.Errorf("code flow = %+v", res.CodeFlows)
	}
	if run.Results[1].RuleIndex != 1 || len(run.Results[1].CodeFlows) != 0 {
		t.Errorf("result 1 = %+v", run.Results[1])
	}
}

func TestSARIFOmitsEmptyAndUnsetProperties(t *testing.T) {
	for name, fs := range map[string][]Finding{"findings": sarifFindings, "empty": nil} {
		var buf bytes.Buffer
		if err := WriteSARIF(&buf, Result{Findings: fs}, sarifRules, Tool{Name: "idemcheck", InformationURI: "https://github.com/idemcheck/idemcheck"}); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Runs []map[string]json.RawMessage `json:"runs"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Runs) != 1 || doc.Runs[0]["results"] == nil {
			t.Errorf("%s: want one run with a results list (empty means no findings), got %s", name, buf.String())
		}
		rest := strings.Replace(buf.String(), `"results": []`, "", 1)
		for _, noise := range []string{`: []`, `: {}`, `: -1`} {
			if strings.Contains(rest, noise) {
				t.Errorf("%s: output still contains %q", name, noise)
			}
		}
	}
}
