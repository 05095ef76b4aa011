// Package keymodel is idemcheck's one description of idempotency keys:
// where per-attempt values come from (sources), where a value becomes a
// key (sinks), which calls give back stable values (barriers), and what
// SDK calls do (operations: create, charge, capture, confirm, pay and
// refund act; update, delete and read do not), and how code is entered
// (entries.go: deliveries that are redelivered, requests that are not).
// Every rule reads it from
// Analyzer's result, computed from the built-in data below extended by
// .idemcheck.yaml, which is written with the same type (config.Pattern).
//
// The built-in sources are only the roots and the libraries the analysis
// may not see: functions whose results depend on the clock, the entropy
// source or a counter are found by analyzing them (IDEM001 exports that
// as a fact), so a generator outside this list is found too.
package keymodel

import (
	"fmt"
	"go/types"
	"regexp"
	"strings"
	"sync"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keyname"
)

// Operation kinds that act: repeating one of them repeats the effect. A
// capture, confirm or pay acts on an object that exists, and the provider
// does each at most once per object (a second capture of a PaymentIntent,
// a confirm of one that succeeded, a pay of a paid invoice fail): a repeat
// charges nothing, so they are not listed. Each says what a repeat does.
var acting = map[string]string{"create": "creates it again", "charge": "charges again", "refund": "refunds again"}

// Acts reports whether an operation of this kind has an effect a
// redelivery would repeat (create, charge, refund).
func Acts(kind string) bool { return acting[kind] != "" }

// Repeats says what a repeat of an acting operation of this kind does
// ("charges again"), for the rules' messages; "" for one that does not act.
func Repeats(kind string) string { return acting[kind] }

// caseFolds are functions whose result is their argument in another case
// or spacing: the same name once normalized.
var caseFolds = map[string]bool{
	"net/http.CanonicalHeaderKey":          true,
	"net/textproto.CanonicalMIMEHeaderKey": true,
	"strings.ToLower":                      true,
	"strings.ToUpper":                      true,
	"strings.TrimSpace":                    true,
}

// FoldsCase reports whether the function pkgPath.name returns its one
// argument in another case or spacing (http.CanonicalHeaderKey,
// strings.ToLower…): a name resolved by value passes through it.
func FoldsCase(pkgPath, name string) bool { return caseFolds[pkgPath+"."+name] }

// Model is the key model a rule consults. Build it with New; the zero
// value is not usable.
type Model struct {
	Sources    []config.Pattern // per-attempt values: functions and fields
	Sinks      []config.Pattern // provider-facing key parameters and fields
	Barriers   []config.Pattern // calls whose results are stable across attempts
	Operations []config.Pattern // SDK calls and what they do
	Keys       *keyname.Matcher // names of idempotency keys
	Headers    *keyname.Matcher // names of idempotency headers
	Identity   *keyname.Matcher // names of per-attempt transport identity
	Config     *config.Config   // the configuration it was extended with; never nil

	memo sync.Map // callKey → answer
}

// New returns the built-in model extended by c (nil: the built-in model).
// Configured entries come first, so they override built-in ones.
func New(c *config.Config) (*Model, error) {
	if c == nil {
		c = &config.Config{}
	}
	m := &Model{Config: c, Keys: keyname.Key, Headers: keyname.Header, Identity: keyname.Identity}
	builtin := defaults()
	m.Sources = append(goOnly(c.Sources), builtin.Sources...)
	m.Sinks = append(goOnly(c.Sinks), builtin.Sinks...)
	m.Barriers = append(goOnly(c.Barriers), builtin.Barriers...)
	m.Operations = append(goOnly(c.Operations), builtin.Operations...)
	if c.KeyName != "" {
		k, err := keyname.Compile(keyname.DefaultKey + "|" + c.KeyName)
		if err != nil {
			return nil, fmt.Errorf("key_name: %v", err)
		}
		m.Keys = k
	}
	if len(c.Headers) > 0 {
		var alts []string
		for _, h := range c.Headers {
			alts = append(alts, "^"+regexp.QuoteMeta(keyname.Normalize(h))+"$")
		}
		h, err := keyname.Compile(keyname.DefaultHeader + "|" + strings.Join(alts, "|"))
		if err != nil {
			return nil, fmt.Errorf("headers: %v", err)
		}
		m.Headers = h
	}
	return m, nil
}

// Default returns the built-in model.
func Default() *Model {
	defaultOnce.Do(func() {
		m, err := New(nil)
		if err != nil {
			panic(err) // the built-in data is wrong: a bug caught by the tests
		}
		defaultModel = m
	})
	return defaultModel
}

var (
	defaultOnce  sync.Once
	defaultModel *Model
)

type callKey struct {
	list           int
	pkg, recv, fun string
}

const (
	listSources = iota
	listBarriers
	listSinks
	listOperations
)

// lookup returns the first entry of list matching the function or method
// pkg.recv.name, remembering the answer: rules ask for the same callees
// many times.
func (m *Model) lookup(list int, pkg, recv, name string) (config.Pattern, bool) {
	k := callKey{list, pkg, recv, name}
	if v, ok := m.memo.Load(k); ok {
		r := v.(lookupResult)
		return r.p, r.ok
	}
	var ps []config.Pattern
	switch list {
	case listSources:
		ps = m.Sources
	case listBarriers:
		ps = m.Barriers
	case listSinks:
		ps = m.Sinks
	case listOperations:
		ps = m.Operations
	}
	var r lookupResult
	for _, p := range ps {
		if list == listOperations && p.Kind == "unconfirmed" {
			continue // a condition on the operation below it (UnconfirmedField)
		}
		if p.MatchMethod(pkg, recv, name) {
			r = lookupResult{p, true}
			break
		}
	}
	m.memo.Store(k, r)
	return r.p, r.ok
}

type lookupResult struct {
	p  config.Pattern
	ok bool
}

// Source reports whether calling pkg.recv.name draws a per-attempt value:
// its kind ("" for a configured source without one) and, for a source
// that fills an argument instead of returning (crypto/rand.Read), that
// argument's index; fills is -1 when the results are the value.
func (m *Model) Source(pkg, recv, name string) (kind string, fills int, ok bool) {
	p, ok := m.lookup(listSources, pkg, recv, name)
	if !ok || p.Kind == "none" {
		return "", 0, false
	}
	return p.Kind, p.Fills - 1, true
}

// SourceField reports whether the field pkg.name holds a per-attempt value.
func (m *Model) SourceField(pkg, name string) (kind string, ok bool) {
	for _, p := range m.Sources {
		if p.MatchField(pkg, name) {
			return p.Kind, true
		}
	}
	return "", false
}

// ConfiguredSourceField reports whether the configuration (not the
// built-in model) names the field pkg.name as a source.
func (m *Model) ConfiguredSourceField(pkg, name string) bool {
	for _, p := range m.Config.Sources {
		if p.MatchField(pkg, name) {
			return true
		}
	}
	return false
}

// Barrier reports whether the results and out-parameters of pkg.recv.name
// are stable across attempts (read back from the database, configuration,
// replay-stable workflow APIs).
func (m *Model) Barrier(pkg, recv, name string) bool {
	_, ok := m.lookup(listBarriers, pkg, recv, name)
	return ok
}

// SinkCall reports whether the arguments of pkg.recv.name are keys sent
// to a provider.
func (m *Model) SinkCall(pkg, recv, name string) bool {
	_, ok := m.lookup(listSinks, pkg, recv, name)
	return ok
}

// SinkField reports whether the field pkg.name is a key a provider reads
// (stripe-go's IdempotencyKey, the AWS SDK's ClientToken…).
func (m *Model) SinkField(pkg, name string) bool {
	for _, p := range m.Sinks {
		if p.MatchField(pkg, name) {
			return true
		}
	}
	return false
}

// Operation returns what the SDK call pkg.recv.name does, if the model
// knows.
func (m *Model) Operation(pkg, recv, name string) (kind string, ok bool) {
	p, ok := m.lookup(listOperations, pkg, recv, name)
	return p.Kind, ok
}

// UnconfirmedField is the field whose absence makes the operation
// pkg.recv.name harmless (a PaymentIntent created without Confirm charges
// nothing), when an "unconfirmed" entry names one.
func (m *Model) UnconfirmedField(pkg, recv, name string) (string, bool) {
	for _, p := range m.Operations {
		if p.Kind == "unconfirmed" && p.Field != "" && p.MatchMethod(pkg, recv, name) {
			return p.Field, true
		}
	}
	return "", false
}

// Observes reports whether pkg.recv.name only records what it is given
// (logging, metrics, tracing, error values): a key passed to it is not
// sent anywhere an effect could repeat.
func (m *Model) Observes(pkg, recv, name string) bool {
	kind, ok := m.Operation(pkg, recv, name)
	return ok && kind == "observe"
}

// ObservesType reports whether pkg is a package whose functions
// all observe (logrus.Fields, slog.Attr, zap.Field).
func (m *Model) ObservesType(pkg string) bool {
	for _, p := range m.Operations {
		if p.Kind == "observe" && p.Function == ".*" && p.MatchFunc(pkg, "Type") {
			return true
		}
	}
	return false
}

// RecordKeyField reports the plain Key or Token field of an idempotency
// record: a struct type named like IdempotencyRecord, PaymentIntent or
// DedupEntry. The name matcher picks which field is the key; whether it
// matters is decided where the record goes.
func RecordKeyField(t types.Type, field string) bool {
	if field != "Key" && field != "Token" || t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	_, isStruct := n.Underlying().(*types.Struct)
	return isStruct && recordName.MatchString(n.Obj().Name())
}

var recordName = regexp.MustCompile(`(?i)(idempot|intent|dedup|intencao)`)

// IsKey reports whether a name denotes an idempotency key.
func (m *Model) IsKey(name string) bool { return m.Keys.Match(name) }

// IsHeader reports whether an HTTP header name carries an idempotency key,
// in any capitalization and common spelling.
func (m *Model) IsHeader(name string) bool { return m.Headers.Match(name) }

// Disabled reports whether the configuration turns rule id off.
func (m *Model) Disabled(id string) bool { return m.Config.Disabled(id) }

// RecvName is the name of a method's receiver type, as the tables name it
// (pointer or not), and "" for functions.
func RecvName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}
