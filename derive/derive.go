package derive

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Intent is what a payment attempt is about to do, frozen before acting.
type Intent struct {
	Tenant  string
	Action  string
	Payload []byte // a JSON object; number literals are read exactly
}

// Result is a derived key with everything that went into it.
type Result struct {
	Key       string // lowercase hex HMAC-SHA256 of Canonical
	Canonical []byte // the exact bytes that were signed; contains no secret
	Version   int
	Tenant    string
	Action    string
	Fields    []FieldResult // in schema order
	Ignored   []string      // payload fields not in the schema, in payload order
}

// FieldResult explains one key field: its raw JSON and what it became.
type FieldResult struct {
	Name       string
	Rule       string
	Raw        json.RawMessage
	Normalized string
}

// Error is a derivation failure: the intent cannot produce a key. Field is
// set when one field's value was refused.
type Error struct {
	Field string
	Rule  string
	Err   error
}

func (e *Error) Error() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return fmt.Sprintf("field %q (%s): %v", e.Field, e.Rule, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrEmptySecret is returned when no HMAC secret is given.
var ErrEmptySecret = errors.New("empty HMAC secret")

// Derive computes the key for in with the full explanation.
func (s *Schema) Derive(secret []byte, in Intent) (*Result, error) {
	if len(secret) == 0 {
		return nil, ErrEmptySecret
	}
	var p parser
	payload, err := parsePayload(&p, in.Payload)
	if err != nil {
		return nil, err
	}
	action, normalized, err := s.normalize(in.Tenant, in.Action, payload)
	if err != nil {
		return nil, err
	}
	canonical, err := appendCanonicalIntent(nil, in.Tenant, s.Version, action, normalized)
	if err != nil {
		return nil, &Error{Err: err}
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write(canonical)
	res := &Result{
		Key:       hex.EncodeToString(mac.Sum(nil)),
		Canonical: canonical,
		Version:   s.Version,
		Tenant:    in.Tenant,
		Action:    in.Action,
		Fields:    make([]FieldResult, len(action.Fields)),
	}
	for i, f := range action.Fields {
		v, _ := payload.Get(f.Name)
		res.Fields[i] = FieldResult{Name: f.Name, Rule: f.Rule, Raw: json.RawMessage(v.Raw), Normalized: normalized[i]}
	}
	for _, m := range payload.Members() {
		name := m.Name()
		if !action.hasField(name) {
			res.Ignored = append(res.Ignored, name)
		}
	}
	return res, nil
}

// Key computes only the hex key for in. For many keys use a Deriver.
func (s *Schema) Key(secret []byte, in Intent) (string, error) {
	d, err := s.NewDeriver(secret)
	if err != nil {
		return "", err
	}
	return d.Key(in.Tenant, in.Action, in.Payload)
}

func parsePayload(p *parser, data []byte) (Value, error) {
	v, err := p.parseDocument(data)
	if err != nil {
		return Value{}, &Error{Err: fmt.Errorf("payload: %w", err)}
	}
	if v.Kind != KindObject {
		return Value{}, &Error{Err: fmt.Errorf("payload: want a JSON object, got %s", describeValue(v))}
	}
	return v, nil
}

// normalize applies each field's rule, in schema order.
func (s *Schema) normalize(tenant, actionName string, payload Value) (*Action, []string, error) {
	if !utf8.ValidString(tenant) {
		return nil, nil, &Error{Err: errors.New("tenant is not valid UTF-8")}
	}
	action, ok := s.Action(actionName)
	if !ok {
		return nil, nil, s.unknownAction(actionName)
	}
	ca := compileAction(action)
	normalized, err := ca.normalize(nil, payload)
	return action, normalized, err
}

func (s *Schema) unknownAction(name string) error {
	return &Error{Err: fmt.Errorf("unknown action %q (schema version %d has %s)",
		name, s.Version, strings.Join(s.ActionNames(), ", "))}
}

// compiledAction is an Action prepared for repeated use: rules looked up,
// fields in canonical order with their names already encoded.
type compiledAction struct {
	action *Action
	rules  []RuleFunc
	order  []int    // field indexes in code point order of their names
	keys   [][]byte // `"name":` for each field, by field index
}

func compileAction(a *Action) *compiledAction {
	ca := &compiledAction{action: a, rules: make([]RuleFunc, len(a.Fields)), order: a.sortedFieldOrder(),
		keys: make([][]byte, len(a.Fields))}
	for i, f := range a.Fields {
		ca.rules[i], _ = lookupRule(f.Rule)
		key, _ := appendString(nil, f.Name)
		ca.keys[i] = append(key, ':')
	}
	return ca
}

// normalize applies each field's rule, in schema order, appending the
// results to dst.
func (ca *compiledAction) normalize(dst []string, payload Value) ([]string, error) {
	for i, f := range ca.action.Fields {
		v, ok := payload.Get(f.Name)
		if !ok {
			return dst, &Error{Field: f.Name, Rule: f.Rule, Err: errors.New("missing from the payload")}
		}
		fn := ca.rules[i]
		if fn == nil {
			return dst, &Error{Field: f.Name, Rule: f.Rule, Err: fmt.Errorf("unknown rule %q", f.Rule)}
		}
		out, err := fn(RuleInput{Field: f, Value: v, Payload: payload})
		if err != nil {
			return dst, &Error{Field: f.Name, Rule: f.Rule, Err: err}
		}
		if !utf8.ValidString(out) {
			return dst, &Error{Field: f.Name, Rule: f.Rule, Err: errors.New("normalized value is not valid UTF-8")}
		}
		dst = append(dst, out)
	}
	return dst, nil
}

// appendCanonical writes {"a":…,"p":{…},"t":…,"v":…}: the top-level keys
// are already in code point order, and the fields are written in code point
// order of their names. tenantJSON is the tenant as a JSON string.
func (ca *compiledAction) appendCanonical(dst, tenantJSON []byte, version int, normalized []string) ([]byte, error) {
	var err error
	dst = append(dst, `{"a":`...)
	if dst, err = appendString(dst, ca.action.Name); err != nil {
		return dst, err
	}
	dst = append(dst, `,"p":{`...)
	for n, i := range ca.order {
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, ca.keys[i]...)
		if dst, err = appendString(dst, normalized[i]); err != nil {
			return dst, err
		}
	}
	dst = append(dst, `},"t":`...)
	dst = append(dst, tenantJSON...)
	dst = append(dst, `,"v":`...)
	dst = strconv.AppendInt(dst, int64(version), 10)
	return append(dst, '}'), nil
}

// appendCanonicalIntent writes the canonical JSON of one normalized intent.
func appendCanonicalIntent(dst []byte, tenant string, version int, a *Action, normalized []string) ([]byte, error) {
	tenantJSON, err := appendString(nil, tenant)
	if err != nil {
		return dst, fmt.Errorf("tenant: %w", err)
	}
	return compileAction(a).appendCanonical(dst, tenantJSON, version, normalized)
}

func (a *Action) hasField(name string) bool {
	for _, f := range a.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// Deriver computes keys for one schema and secret, reusing its buffers and
// HMAC state between calls. It is not safe for concurrent use; give each
// goroutine its own.
type Deriver struct {
	schema     *Schema
	actions    []*compiledAction
	mac        hash.Hash
	parser     parser
	normalized []string
	tenant     []byte
	buf        []byte
	sum        []byte
}

// NewDeriver returns a Deriver for s and secret. The schema must not change
// while the Deriver is in use.
func (s *Schema) NewDeriver(secret []byte) (*Deriver, error) {
	if len(secret) == 0 {
		return nil, ErrEmptySecret
	}
	d := &Deriver{schema: s, mac: hmac.New(sha256.New, secret)}
	for i := range s.Actions {
		d.actions = append(d.actions, compileAction(&s.Actions[i]))
	}
	return d, nil
}

// Key returns the hex key of one intent.
func (d *Deriver) Key(tenant, action string, payload []byte) (string, error) {
	out, err := d.AppendKey(nil, tenant, action, payload)
	return string(out), err
}

// AppendKey appends the hex key of one intent to dst.
func (d *Deriver) AppendKey(dst []byte, tenant, action string, payload []byte) ([]byte, error) {
	v, err := parsePayload(&d.parser, payload)
	if err != nil {
		return dst, err
	}
	ca, err := d.lookupAction(action)
	if err != nil {
		return dst, err
	}
	if d.tenant, err = appendString(d.tenant[:0], tenant); err != nil {
		return dst, &Error{Err: fmt.Errorf("tenant: %w", err)}
	}
	return d.appendKeyValue(dst, ca, d.tenant, v)
}

func (d *Deriver) lookupAction(name string) (*compiledAction, error) {
	for _, ca := range d.actions {
		if ca.action.Name == name {
			return ca, nil
		}
	}
	return nil, d.schema.unknownAction(name)
}

// lookupActionValue finds the action named by a JSON string value without
// decoding it when it has no escapes.
func (d *Deriver) lookupActionValue(v Value) (*compiledAction, error) {
	if v.escaped {
		name, _ := v.Text()
		return d.lookupAction(name)
	}
	inner := v.Raw[1 : len(v.Raw)-1]
	for _, ca := range d.actions {
		if ca.action.Name == string(inner) {
			return ca, nil
		}
	}
	return nil, d.schema.unknownAction(string(inner))
}

// tenantJSON returns a JSON string value in canonical form: the raw text
// when it has no escapes (it then holds no control characters, '"' or '\\'),
// else decoded and re-encoded.
func (d *Deriver) tenantJSON(v Value) ([]byte, error) {
	if !v.escaped {
		return v.Raw, nil
	}
	s, _ := v.Text()
	var err error
	d.tenant, err = appendString(d.tenant[:0], s)
	return d.tenant, err
}

func (d *Deriver) appendKeyValue(dst []byte, ca *compiledAction, tenantJSON []byte, payload Value) ([]byte, error) {
	var err error
	d.normalized, err = ca.normalize(d.normalized[:0], payload)
	if err != nil {
		return dst, err
	}
	d.buf, err = ca.appendCanonical(d.buf[:0], tenantJSON, d.schema.Version, d.normalized)
	if err != nil {
		return dst, &Error{Err: err}
	}
	d.mac.Reset()
	d.mac.Write(d.buf)
	d.sum = d.mac.Sum(d.sum[:0])
	return hex.AppendEncode(dst, d.sum), nil
}
