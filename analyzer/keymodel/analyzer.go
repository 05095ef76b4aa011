package keymodel

import (
	"encoding/base64"
	"flag"
	"fmt"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/config"
)

// Analyzer computes the key model every rule consults: the built-in model
// extended by the configuration given with its -config flag. Rules list it
// in Requires and read it with Of.
var Analyzer = &analysis.Analyzer{
	Name:       "keymodel",
	Doc:        "the key model (sources, sinks, barriers, SDK operations) the idemcheck rules share",
	Run:        func(*analysis.Pass) (any, error) { return configFlag.model() },
	ResultType: reflect.TypeOf((*Model)(nil)),
}

// configFlag is the configuration Analyzer was given. Every rule registers
// it as its own -config flag too (see RegisterFlag), because go vet only
// passes flags to the analyzers it was asked to run.
var configFlag = &Flag{}

func init() {
	RegisterFlag(&Analyzer.Flags)
}

// RegisterFlag adds the -config and -tests flags to a rule's analyzer;
// setting them on any rule configures the model all of them share.
func RegisterFlag(fs *flag.FlagSet) {
	fs.Var(configFlag, config.FlagName, config.FlagUsage)
	fs.BoolVar(&testCode, TestsFlagName, false, "also report findings in test support outside _test.go files (functions taking a testing.TB; set by idemcheck lint --tests)")
}

// TestsFlagName is the flag that reports test support too.
const TestsFlagName = "tests"

var testCode bool

// TestCode reports whether findings in test support outside _test.go
// files (functions taking a *testing.T, B, F or testing.TB) are reported:
// only with the -tests flag, which idemcheck lint --tests sets.
func TestCode() bool { return testCode }

// Of returns the model computed for the pass; the analyzer must list
// Analyzer in Requires.
func Of(pass *analysis.Pass) *Model { return pass.ResultOf[Analyzer].(*Model) }

// Flag is the flag.Value carrying the configuration: base64 of the
// .idemcheck.yaml content (config.Encode), so go vet's cache, which keys
// on the flags, is invalidated whenever the file changes. The model is
// built once per value.
type Flag struct {
	mu  sync.Mutex
	raw string
	m   *Model
	err error
}

// String implements flag.Value.
func (f *Flag) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.raw
}

// Set implements flag.Value: it decodes, validates and builds the model.
func (f *Flag) Set(s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s == f.raw && (f.m != nil || f.err != nil) {
		return f.err
	}
	f.raw, f.m, f.err = s, nil, nil
	c, err := decode(s)
	if err == nil && c != nil {
		f.m, err = New(c)
	}
	f.err = err
	return err
}

func decode(s string) (*config.Config, error) {
	if s == "" {
		return nil, nil
	}
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("config flag: not base64: %v", err)
	}
	return config.Parse(data)
}

func (f *Flag) model() (*Model, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	if f.m == nil {
		return Default(), nil
	}
	return f.m, nil
}
