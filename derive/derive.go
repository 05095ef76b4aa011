package derive

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
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
	canonical, err := appendCanonicalIntent(nil, in.Tenant, in.Action, s.Version, action, normalized)
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
		return nil, nil, &Error{Err: fmt.Errorf("unknown action %q (schema version %d has %s)",
			actionName, s.Version, strings.Join(s.ActionNames(), ", "))}
	}
	normalized := make([]string, len(action.Fields))
	for i, f := range action.Fields {
		v, ok := payload.Get(f.Name)
		if !ok {
			return nil, nil, &Error{Field: f.Name, Rule: f.Rule, Err: errors.New("missing from the payload")}
		}
		fn, _ := lookupRule(f.Rule)
		out, err := fn(RuleInput{Field: f, Value: v, Payload: payload})
		if err != nil {
			return nil, nil, &Error{Field: f.Name, Rule: f.Rule, Err: err}
		}
		if !utf8.ValidString(out) {
			return nil, nil, &Error{Field: f.Name, Rule: f.Rule, Err: errors.New("normalized value is not valid UTF-8")}
		}
		normalized[i] = out
	}
	return action, normalized, nil
}

func (a *Action) hasField(name string) bool {
	for _, f := range a.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// appendCanonicalIntent writes {"a":…,"p":{…},"t":…,"v":…}: the top-level
// keys are already in code point order, and the payload fields are written
// in code point order of their names.
func appendCanonicalIntent(dst []byte, tenant, action string, version int, a *Action, normalized []string) ([]byte, error) {
	var err error
	dst = append(dst, `{"a":`...)
	if dst, err = appendString(dst, action); err != nil {
		return dst, err
	}
	dst = append(dst, `,"p":{`...)
	for n, i := range a.sortedFieldOrder() {
		if n > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendString(dst, a.Fields[i].Name); err != nil {
			return dst, err
		}
		dst = append(dst, ':')
		if dst, err = appendString(dst, normalized[i]); err != nil {
			return dst, err
		}
	}
	dst = append(dst, `},"t":`...)
	if dst, err = appendString(dst, tenant); err != nil {
		return dst, err
	}
	dst = append(dst, `,"v":`...)
	dst = fmt.Appendf(dst, "%d", version)
	return append(dst, '}'), nil
}

// Deriver computes keys for one schema and secret, reusing its buffers and
// HMAC state between calls. It is not safe for concurrent use; give each
// goroutine its own.
type Deriver struct {
	schema *Schema
	mac    hash.Hash
	parser parser
	buf    []byte
	sum    []byte
}

// NewDeriver returns a Deriver for s and secret.
func (s *Schema) NewDeriver(secret []byte) (*Deriver, error) {
	if len(secret) == 0 {
		return nil, ErrEmptySecret
	}
	return &Deriver{schema: s, mac: hmac.New(sha256.New, secret)}, nil
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
	return d.appendKeyValue(dst, tenant, action, v)
}

func (d *Deriver) appendKeyValue(dst []byte, tenant, action string, payload Value) ([]byte, error) {
	a, normalized, err := d.schema.normalize(tenant, action, payload)
	if err != nil {
		return dst, err
	}
	d.buf, err = appendCanonicalIntent(d.buf[:0], tenant, action, d.schema.Version, a, normalized)
	if err != nil {
		return dst, &Error{Err: err}
	}
	d.mac.Reset()
	d.mac.Write(d.buf)
	d.sum = d.mac.Sum(d.sum[:0])
	return hex.AppendEncode(dst, d.sum), nil
}
