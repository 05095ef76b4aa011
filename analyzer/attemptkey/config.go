package attemptkey

import (
	"regexp"
	"strings"
	"sync"

	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

// Config extends the built-in model of sources, sinks and barriers. The
// lint command and the golangci-lint plugin set it from .idemcheck.yaml
// through Configure (or the analyzer's -keypattern flag); the zero Config
// is the built-in model.
type Config struct {
	Keys     *keyname.Matcher // names of idempotency keys; nil means keyname.Key
	Sources  []Pattern        // extra per-attempt sources: functions or struct fields
	Sinks    []Pattern        // extra key sinks: function arguments or struct fields
	Barriers []Pattern        // extra barriers: functions whose results are stable
}

// Pattern names functions, methods or struct fields of a package.
type Pattern struct {
	Package string         // import path; a trailing "/..." matches sub-packages
	Name    *regexp.Regexp // function, method or field name
}

func (p Pattern) matches(pkg, name string) bool {
	if p.Name == nil || !p.Name.MatchString(name) {
		return false
	}
	if p.Package == "" {
		return true
	}
	if prefix, ok := strings.CutSuffix(p.Package, "/..."); ok {
		return hasPathPrefix(pkg, prefix)
	}
	return pkg == p.Package
}

var (
	configMu sync.Mutex
	config   Config
)

// Configure replaces the configuration used by Analyzer.
func Configure(c Config) {
	configMu.Lock()
	defer configMu.Unlock()
	config = c
}

func currentConfig() Config {
	configMu.Lock()
	defer configMu.Unlock()
	return config
}

func (c Config) keys() *keyname.Matcher {
	if c.Keys != nil {
		return c.Keys
	}
	return keyname.Key
}

func anyMatch(ps []Pattern, pkg, name string) bool {
	for _, p := range ps {
		if p.matches(pkg, name) {
			return true
		}
	}
	return false
}

func (c Config) isSource(cal callee) bool {
	return cal.fn != nil && anyMatch(c.Sources, cal.pkg, cal.name)
}
func (c Config) isBarrier(cal callee) bool {
	return cal.fn != nil && anyMatch(c.Barriers, cal.pkg, cal.name)
}
func (c Config) isSinkCall(cal callee) bool {
	return cal.fn != nil && anyMatch(c.Sinks, cal.pkg, cal.name)
}
func (c Config) isSourceField(pkg, name string) bool { return anyMatch(c.Sources, pkg, name) }
func (c Config) isSinkField(pkg, name string) bool   { return anyMatch(c.Sinks, pkg, name) }
