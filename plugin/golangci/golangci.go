// Package golangci is the golangci-lint module plugin of idemcheck. It
// registers the linter "idemcheck", which runs the same analyzers as
// `idemcheck lint` (IDEM001-IDEM007), configured from the plugin settings
// in .golangci.yml and, optionally, an .idemcheck.yaml file.
//
// Build a custom golangci-lint with it (.custom-gcl.yml):
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/idemcheck/idemcheck
//	    import: github.com/idemcheck/idemcheck/plugin/golangci
//	    version: latest
//
// and enable it (.golangci.yml):
//
//	version: "2"
//	linters:
//	  enable: [idemcheck]
//	  settings:
//	    custom:
//	      idemcheck:
//	        type: module
//	        settings:
//	          config: .idemcheck.yaml
//	          disable: [IDEM005]
package golangci

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/suite"
)

func init() {
	register.Plugin("idemcheck", New)
}

// Settings are the plugin settings: the keys of .idemcheck.yaml, inline,
// plus Config, a path to such a file whose lists the inline settings
// extend.
type Settings struct {
	Config        string           `json:"config"`
	Sources       []config.Pattern `json:"sources"`
	Sinks         []config.Pattern `json:"sinks"`
	Barriers      []config.Pattern `json:"barriers"`
	KeyName       string           `json:"key_name"`
	Tables        []string         `json:"tables"`
	TenantColumns []string         `json:"tenant_columns"`
	Disable       []string         `json:"disable"`
}

// Plugin is the idemcheck linter for golangci-lint.
type Plugin struct {
	cfg *config.Config
}

// New decodes the plugin settings (unknown keys are an error) and builds
// the configuration the analyzers will use.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("idemcheck: %w", err)
	}
	cfg := &config.Config{}
	if s.Config != "" {
		if cfg, _, err = config.Load(s.Config); err != nil {
			return nil, fmt.Errorf("idemcheck: %w", err)
		}
	}
	cfg.Sources = append(cfg.Sources, s.Sources...)
	cfg.Sinks = append(cfg.Sinks, s.Sinks...)
	cfg.Barriers = append(cfg.Barriers, s.Barriers...)
	if s.KeyName != "" {
		cfg.KeyName = s.KeyName
	}
	cfg.Tables = append(cfg.Tables, s.Tables...)
	cfg.TenantColumns = append(cfg.TenantColumns, s.TenantColumns...)
	cfg.Disable = append(cfg.Disable, s.Disable...)
	if err := cfg.Compile(); err != nil {
		return nil, fmt.Errorf("idemcheck: %w", err)
	}
	return &Plugin{cfg: cfg}, nil
}

// BuildAnalyzers installs the configuration and returns the analyzers of
// the enabled rules.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	// The key model takes the configuration the way go vet passes it: as
	// the file's content in the -config flag every rule shares.
	data, err := yaml.Marshal(p.cfg)
	if err != nil {
		return nil, fmt.Errorf("idemcheck: %w", err)
	}
	if err := keymodel.Analyzer.Flags.Set(config.FlagName, config.Encode(data)); err != nil {
		return nil, fmt.Errorf("idemcheck: %w", err)
	}
	return suite.Enabled(p.cfg), nil
}

// GetLoadMode asks golangci-lint for full type information (the analyzers
// use types, SSA and facts).
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
