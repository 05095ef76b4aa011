// Package config reads .idemcheck.yaml, the project configuration of
// `idemcheck lint`, and carries it to analyzers that run inside
// `go vet -vettool` as an analyzer flag.
//
// The file is looked up from the working directory upwards (or given with
// --config). Unknown keys are an error, so a typo never silently disables a
// check:
//
//	sources:          # extra per-attempt values (IDEM001)
//	  - package: github.com/acme/ids
//	    function: New.*  # package: github.com/acme/... covers sub-packages
//	  - field: CorrelationID
//	sinks:            # extra places that build a key (IDEM001, IDEM003-005)
//	  - package: github.com/acme/pay
//	    function: Charge
//	barriers:         # values that are stable across attempts (IDEM001)
//	  - package: github.com/acme/store
//	    function: LoadIntent
//	operations:       # SDK calls and what they do (IDEM002): create, charge,
//	  - package: github.com/acme/pay   # capture, confirm, pay, refund act;
//	    function: Settle               # update, delete, read do not; store
//	    kind: charge                   # writes its arguments to a database
//	headers: [X-Op-Token]         # extra idempotency header names
//	key_name: (?i)op_?ref         # extra key-name pattern
//	tables: [(?i)pedidos_pix]     # extra idempotency table patterns
//	tenant_columns: [merchant_id] # extra tenant columns
//	disable: [IDEM005]            # rules to turn off
package config

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

// Reference is the configuration's reference, printed by
// `idemcheck lint --explain config`: a user who installed the binary with
// go install has no docs/ directory to look things up in.
//
//go:embed reference.txt
var Reference string

// SeeReference ends a configuration error with where the keys are
// described, in the binary itself.
const SeeReference = "run 'idemcheck lint --explain config' for the keys"

// FileName is the name looked up from the working directory upwards.
const FileName = ".idemcheck.yaml"

// Config is the parsed .idemcheck.yaml.
type Config struct {
	Sources       []Pattern `yaml:"sources" json:"sources,omitempty"`
	Sinks         []Pattern `yaml:"sinks" json:"sinks,omitempty"`
	Barriers      []Pattern `yaml:"barriers" json:"barriers,omitempty"`
	Operations    []Pattern `yaml:"operations" json:"operations,omitempty"`
	Headers       []string  `yaml:"headers" json:"headers,omitempty"`
	KeyName       string    `yaml:"key_name" json:"key_name,omitempty"`
	Tables        []string  `yaml:"tables" json:"tables,omitempty"`
	TenantColumns []string  `yaml:"tenant_columns" json:"tenant_columns,omitempty"`
	Disable       []string  `yaml:"disable" json:"disable,omitempty"`

	// Exclude are path globs (relative to the directory of the file; "**"
	// spans directories) whose findings lint drops.
	Exclude []string `yaml:"exclude" json:"exclude,omitempty"`
	// IncludeGenerated reports findings in generated files ("// Code
	// generated … DO NOT EDIT."), which are skipped by default.
	IncludeGenerated bool `yaml:"include_generated" json:"include_generated,omitempty"`

	keyName *regexp.Regexp
	tables  []*regexp.Regexp
	exclude []*regexp.Regexp
}

// Pattern names a function or a field. Package is an import path (empty:
// any package; a trailing "/..." includes sub-packages; a "*" element
// stands for any one element, such as a major version); Function, Field
// and Receiver are regular expressions matched against the whole name.
// The built-in key model (package keymodel) is written with the same type,
// so a configuration entry is exactly as expressive as a built-in one.
type Pattern struct {
	Package  string `yaml:"package" json:"package,omitempty"`
	Function string `yaml:"function" json:"function,omitempty"`
	Field    string `yaml:"field" json:"field,omitempty"`
	// Receiver restricts a function pattern to methods whose receiver type
	// name matches ("" any function or method, "-" functions only).
	Receiver string `yaml:"receiver" json:"receiver,omitempty"`
	// Kind classifies the entry: for sources what the value is (random,
	// clock, counter, message-id, request-id, attempt, model), for
	// operations what the call does (create, charge, capture, confirm, pay,
	// refund, update, delete, read, store; observe for logging, metrics,
	// tracing and error values, which are never key sinks; harmless for a
	// create that moves no money and bills nothing).
	Kind string `yaml:"kind" json:"kind,omitempty"`
	// Language is the language the entry is for: "" or "go", "python",
	// "typescript" (Package is then a module as imported, see keymodel.Tables).
	Language string `yaml:"language" json:"language,omitempty"`
	// Fills is, for a source that writes its value into an argument
	// instead of returning it (crypto/rand.Read), that argument's index
	// plus one.
	Fills int `yaml:"fills" json:"fills,omitempty"`
	// Key is, for an operation whose idempotency key is an argument by
	// position (YooKassa's Payment.create(params, key)), that argument's
	// index plus one.
	Key int `yaml:"key" json:"key,omitempty"`

	function, field, receiver *regexp.Regexp
}

// Languages an entry may be for.
var Languages = []string{"go", "python", "typescript"}

// Parse decodes and validates a configuration. Unknown keys are errors.
func Parse(data []byte) (*Config, error) {
	c := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("invalid config: %s; %s", describeYAMLError(err), SeeReference)
	}
	if err := c.Compile(); err != nil {
		return nil, err
	}
	return c, nil
}

// Compile validates c and prepares its patterns. Parse calls it; callers
// that fill a Config themselves (the golangci-lint plugin) must too.
func (c *Config) Compile() error {
	c.keyName, c.tables, c.exclude = nil, nil, nil
	var err error
	for _, g := range c.Exclude {
		re, err := globRegexp(g)
		if err != nil {
			return fmt.Errorf("invalid config: exclude: %q: %v", g, err)
		}
		c.exclude = append(c.exclude, re)
	}
	if c.KeyName != "" {
		if c.keyName, err = regexp.Compile(c.KeyName); err != nil {
			return fmt.Errorf("invalid config: key_name: %v", err)
		}
	}
	for _, t := range c.Tables {
		re, err := regexp.Compile(t)
		if err != nil {
			return fmt.Errorf("invalid config: tables: %v", err)
		}
		c.tables = append(c.tables, re)
	}
	for i, col := range c.TenantColumns {
		if !identRE.MatchString(col) {
			return fmt.Errorf("invalid config: tenant_columns: %q is not a column name", col)
		}
		c.TenantColumns[i] = strings.ToLower(col)
	}
	for i, id := range c.Disable {
		if !ruleIDRE.MatchString(id) {
			return fmt.Errorf("invalid config: disable: %q is not a rule id like IDEM005", id)
		}
		c.Disable[i] = strings.ToUpper(id)
	}
	for _, list := range []struct {
		name string
		ps   []Pattern
	}{{"sources", c.Sources}, {"sinks", c.Sinks}, {"barriers", c.Barriers}, {"operations", c.Operations}} {
		for i := range list.ps {
			if err := list.ps[i].compile(); err != nil {
				return fmt.Errorf("invalid config: %s[%d]: %v", list.name, i, err)
			}
			if l := list.ps[i].Language; l != "" && !slices.Contains(Languages, l) {
				return fmt.Errorf("invalid config: %s[%d]: language: %q is not one of %s", list.name, i, l, strings.Join(Languages, ", "))
			}
			if err := checkKind(list.name, list.ps[i].Kind); err != nil {
				return fmt.Errorf("invalid config: %s[%d]: %v", list.name, i, err)
			}
		}
	}
	return nil
}

// Kinds a source or an operation may have.
var (
	SourceKinds    = []string{"random", "clock", "counter", "message-id", "request-id", "attempt", "model"}
	OperationKinds = []string{"create", "charge", "capture", "confirm", "pay", "refund", "update", "delete", "read", "store", "observe", "harmless", "validate", "remainder", "unconfirmed", "build"}
)

func checkKind(list, kind string) error {
	var valid []string
	switch list {
	case "sources":
		if kind == "" {
			return nil
		}
		valid = SourceKinds
	case "operations":
		valid = OperationKinds
	default:
		if kind == "" {
			return nil
		}
		return fmt.Errorf("kind: only sources and operations have a kind")
	}
	if slices.Contains(valid, kind) {
		return nil
	}
	return fmt.Errorf("kind: %q is not one of %s", kind, strings.Join(valid, ", "))
}

var (
	identRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	ruleIDRE = regexp.MustCompile(`(?i)^IDEM\d{3}$`)
)

func (p *Pattern) compile() error {
	if p.Function == "" && p.Field == "" {
		return errors.New("needs a function or a field")
	}
	var err error
	if p.Function != "" {
		if p.function, err = regexp.Compile("^(?:" + p.Function + ")$"); err != nil {
			return fmt.Errorf("function: %v", err)
		}
	}
	if p.Field != "" {
		if p.field, err = regexp.Compile("^(?:" + p.Field + ")$"); err != nil {
			return fmt.Errorf("field: %v", err)
		}
	}
	if p.Receiver != "" && p.Receiver != "-" {
		if p.receiver, err = regexp.Compile("^(?:" + p.Receiver + ")$"); err != nil {
			return fmt.Errorf("receiver: %v", err)
		}
	}
	return nil
}

// Compile prepares a pattern written in code (the built-in model).
func (p *Pattern) Compile() error { return p.compile() }

// MatchMethod reports whether the function or method pkgPath.recv.name
// matches p; recv is the receiver's type name, "" for functions.
func (p Pattern) MatchMethod(pkgPath, recv, name string) bool {
	if !p.MatchFunc(pkgPath, name) {
		return false
	}
	switch {
	case p.Receiver == "":
		return true
	case p.Receiver == "-":
		return recv == ""
	}
	return p.receiver.MatchString(recv)
}

// FunctionPattern returns the compiled, anchored function pattern or nil.
func (p Pattern) FunctionPattern() *regexp.Regexp { return p.function }

// FieldPattern returns the compiled, anchored field pattern or nil.
func (p Pattern) FieldPattern() *regexp.Regexp { return p.field }

// MatchFunc reports whether the function pkgPath.name matches p.
func (p Pattern) MatchFunc(pkgPath, name string) bool {
	return p.function != nil && p.matchPackage(pkgPath) && p.function.MatchString(name)
}

// MatchField reports whether the field pkgPath.name matches p.
func (p Pattern) MatchField(pkgPath, name string) bool {
	return p.field != nil && p.matchPackage(pkgPath) && p.field.MatchString(name)
}

// matchPackage compares import paths; like IDEM001's patterns, a trailing
// "/..." also matches sub-packages.
func (p Pattern) matchPackage(pkgPath string) bool {
	if p.Package == "" || p.Package == pkgPath {
		return true
	}
	if strings.Contains(p.Package, "*") {
		// A * stands for one path element (a module's major version).
		ok, _ := path.Match(p.Package, pkgPath)
		return ok
	}
	prefix, ok := strings.CutSuffix(p.Package, "/...")
	return ok && (pkgPath == prefix || strings.HasPrefix(pkgPath, prefix+"/"))
}

// Excluded reports whether a file, given by its slash-separated path
// relative to the configuration file's directory, matches an exclude glob,
// itself or through one of its parent directories ("gen" excludes
// gen/a/b.go).
func (c *Config) Excluded(rel string) bool {
	if c == nil {
		return false
	}
	for _, re := range c.exclude {
		for p := rel; p != "." && p != "/" && p != ""; p = path.Dir(p) {
			if re.MatchString(p) {
				return true
			}
		}
	}
	return false
}

// globRegexp translates a path glob: "*" and "?" stay inside one path
// element, "**" spans any number of them, [...] is a character class.
func globRegexp(glob string) (*regexp.Regexp, error) {
	if _, err := path.Match(strings.ReplaceAll(glob, "**", "*"), ""); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); i++ {
		switch ch := glob[i]; {
		case strings.HasPrefix(glob[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(glob[i:], "**"):
			b.WriteString(".*")
			i++
		case ch == '*':
			b.WriteString("[^/]*")
		case ch == '?':
			b.WriteString("[^/]")
		case ch == '[':
			j := strings.IndexByte(glob[i:], ']')
			class := glob[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j
		case ch == '\\' && i+1 < len(glob):
			i++
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(strings.TrimPrefix(b.String(), "^./"))
}

// IncludesGenerated reports whether findings in generated files are kept.
func (c *Config) IncludesGenerated() bool { return c != nil && c.IncludeGenerated }

// Disabled reports whether rule id is turned off.
func (c *Config) Disabled(id string) bool {
	return c != nil && slices.Contains(c.Disable, strings.ToUpper(id))
}

// MatchKeyName reports whether name matches the configured extra key-name
// pattern (the built-in pattern is applied by the analyzers). Like the
// built-in one, the pattern sees the normalized name: lower case, letters
// and digits only, so "opref" matches opRef, op_ref and Op-Ref.
func (c *Config) MatchKeyName(name string) bool {
	return c != nil && c.keyName != nil && c.keyName.MatchString(keyname.Normalize(name))
}

// MatchTable reports whether table matches one of the configured extra
// table patterns.
func (c *Config) MatchTable(table string) bool {
	if c == nil {
		return false
	}
	for _, re := range c.tables {
		if re.MatchString(table) {
			return true
		}
	}
	return false
}

// IsTenantColumn reports whether col is one of the configured extra tenant
// columns.
func (c *Config) IsTenantColumn(col string) bool {
	return c != nil && slices.Contains(c.TenantColumns, strings.ToLower(col))
}

// Find looks for FileName in dir and its parents. It returns "" when there
// is none.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, FileName)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Load reads and parses the configuration file at path.
func Load(path string) (*Config, []byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("config: %v", err)
	}
	return LoadData(path, data)
}

// LoadData parses data, the content of the configuration file at path.
func LoadData(path string, data []byte) (*Config, []byte, error) {
	c, err := Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return c, data, nil
}

// Encode turns the file content into an analyzer flag value (package
// keymodel decodes it). The content
// itself (not the path) travels to the vet tool, so go vet's cache, which
// keys on the flags, is invalidated whenever the configuration changes.
func Encode(data []byte) string {
	return base64.StdEncoding.EncodeToString(data)
}

// Digest is a short hash of the configuration content, for logs.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// FlagName is the name of the analyzer flag carrying the configuration.
const FlagName = "config"

// FlagUsage describes the flag.
const FlagUsage = "base64 of the .idemcheck.yaml content (set by idemcheck lint)"

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
