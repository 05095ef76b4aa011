package golangci

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
)

func TestNewAndBuildAnalyzers(t *testing.T) {
	defer resetConfig()
	dir := t.TempDir()
	file := filepath.Join(dir, ".idemcheck.yaml")
	if err := os.WriteFile(file, []byte("tenant_columns: [loja_id]\ndisable: [IDEM004]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// golangci-lint hands over the settings as decoded YAML: maps and slices.
	settings := map[string]any{
		"config":   file,
		"disable":  []any{"IDEM005"},
		"key_name": "opref",
		"sinks":    []any{map[string]any{"package": "github.com/acme/pay", "function": "Charge"}},
	}
	p, err := New(settings)
	if err != nil {
		t.Fatal(err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
	analyzers, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range analyzers {
		names = append(names, a.Name)
	}
	if got := strings.Join(names, ","); got != "IDEM001,IDEM002,IDEM003,IDEM006,IDEM007,directives" {
		t.Errorf("analyzers = %s", got)
	}
	res, err := keymodel.Analyzer.Run(nil) // the model every rule will get
	if err != nil {
		t.Fatal(err)
	}
	m := res.(*keymodel.Model)
	if !m.Config.IsTenantColumn("loja_id") || !m.IsKey("op_ref") || !m.SinkCall("github.com/acme/pay", "", "Charge") || !m.Disabled("IDEM004") {
		t.Errorf("configuration not installed: %+v", m.Config)
	}
}

func resetConfig() { _ = keymodel.Analyzer.Flags.Set(config.FlagName, "") }

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("idemcheck")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	analyzers, err := p.BuildAnalyzers()
	defer resetConfig()
	if err != nil || len(analyzers) != 8 {
		t.Fatalf("%d analyzers, %v", len(analyzers), err)
	}
}

func TestBadSettings(t *testing.T) {
	for name, s := range map[string]any{
		"unknown key":  map[string]any{"tabels": []any{"x"}},
		"bad regexp":   map[string]any{"key_name": "("},
		"missing file": map[string]any{"config": filepath.Join(t.TempDir(), "nope.yaml")},
		"bad rule":     map[string]any{"disable": []any{"IDEM5"}},
	} {
		if _, err := New(s); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
