package derive

import (
	"bytes"
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
	Warnings  []Warning     // likely mistakes in the input; the key is derived all the same
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
	d, err := s.NewDeriver(secret)
	if err != nil {
		return nil, err
	}
	return d.Derive(in)
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

func (s *Schema) unknownAction(name string) error {
	return &Error{Err: fmt.Errorf("unknown action %s (schema version %d has %s)",
		quoteValue(name), s.Version, strings.Join(s.ActionNames(), ", "))}
}

// compiledAction is an Action prepared for repeated use: rules looked up,
// fields in canonical order with their names already encoded.
type compiledAction struct {
	action *Action
	rules  []appendRuleFunc
	views  []viewRuleFunc
	cents  []int    // indexes of cents fields named like cents (alreadyCentsWarning)
	order  []int    // field indexes in code point order of their names
	keys   [][]byte // `"name":` for each field, by field index
	head   []byte   // `{"a":"<action>","p":{`
	err    error    // set when the action name cannot be encoded
}

func compileAction(a *Action) *compiledAction {
	ca := &compiledAction{action: a, rules: make([]appendRuleFunc, len(a.Fields)), views: make([]viewRuleFunc, len(a.Fields)),
		order: a.sortedFieldOrder(), keys: make([][]byte, len(a.Fields)), cents: centsFields(a)}
	for i, f := range a.Fields {
		ca.rules[i] = rules[f.Rule].appendFn
		ca.views[i] = rules[f.Rule].view
		key, _ := appendString(nil, f.Name)
		ca.keys[i] = append(key, ':')
	}
	ca.head, ca.err = appendString([]byte(`{"a":`), a.Name)
	ca.head = append(ca.head, `,"p":{`...)
	return ca
}

// normBuffer holds the normalized values of one intent: back to back in
// data, or, for a value a rule leaves as a slice of its input, that slice.
type normBuffer struct {
	data    []byte
	ends    []int
	views   [][]byte // views[i] is field i's value when inView[i]
	inView  []bool
	scratch []byte
	in      RuleInput // kept here so passing &in to a rule does not allocate
}

func (nb *normBuffer) reset() {
	nb.data, nb.ends = nb.data[:0], nb.ends[:0]
	clear(nb.views) // do not keep the last input alive
	nb.views, nb.inView = nb.views[:0], nb.inView[:0]
}

func (nb *normBuffer) value(i int) []byte {
	if nb.inView[i] {
		return nb.views[i]
	}
	start := 0
	if i > 0 {
		start = nb.ends[i-1]
	}
	return nb.data[start:nb.ends[i]]
}

// normalize applies each field's rule, in schema order, into nb.
func (ca *compiledAction) normalize(nb *normBuffer, payload Value) error {
	nb.reset()
	in := &nb.in
	in.Payload = payload
	for i := range ca.action.Fields {
		f := &ca.action.Fields[i]
		v, ok := payload.Get(f.Name)
		if !ok {
			return &Error{Field: f.Name, Rule: f.Rule, Err: errors.New("missing from the payload")}
		}
		fn := ca.rules[i]
		if fn == nil {
			return &Error{Field: f.Name, Rule: f.Rule, Err: fmt.Errorf("unknown rule %q", f.Rule)}
		}
		in.Field, in.Value = *f, v
		if view := ca.views[i]; view != nil {
			if out, ok := view(in); ok {
				nb.views, nb.inView = append(nb.views, out), append(nb.inView, true)
				nb.ends = append(nb.ends, len(nb.data))
				continue
			}
		}
		var err error
		if nb.data, err = fn(nb.data, in, &nb.scratch); err != nil {
			return &Error{Field: f.Name, Rule: f.Rule, Err: err}
		}
		// Invalid UTF-8 from a rule is caught by the canonical encoder.
		nb.ends = append(nb.ends, len(nb.data))
		nb.views, nb.inView = append(nb.views, nil), append(nb.inView, false)
	}
	return nil
}

// canonicalOut receives canonical JSON: it keeps all of it in buf, or, with
// mac set, feeds it to mac in pieces, so that a huge value is hashed
// without a second whole copy of it.
type canonicalOut struct {
	buf []byte
	mac hash.Hash
}

// macChunk is how much canonical JSON is buffered before hashing.
const macChunk = 32 << 10

func (o *canonicalOut) spill() {
	if o.mac != nil && len(o.buf) >= macChunk {
		o.mac.Write(o.buf)
		o.buf = o.buf[:0]
	}
}

// appendRaw appends JSON text that is already canonical.
func (o *canonicalOut) appendRaw(b []byte) {
	if o.mac != nil && len(b) > macChunk {
		o.mac.Write(o.buf)
		o.mac.Write(b)
		o.buf = o.buf[:0]
		return
	}
	o.buf = append(o.buf, b...)
	o.spill()
}

func (o *canonicalOut) appendString(s []byte) error {
	o.buf = append(o.buf, '"')
	for len(s) > 0 {
		n := len(s)
		if o.mac != nil && n > macChunk {
			// Cut before a rune's first byte, so no valid rune is split.
			n = macChunk
			for n > 0 && !utf8.RuneStart(s[n]) {
				n--
			}
			if n == 0 {
				n = macChunk
			}
		}
		var err error
		if o.buf, err = appendStringBody(o.buf, s[:n]); err != nil {
			return err
		}
		s = s[n:]
		o.spill()
	}
	o.buf = append(o.buf, '"')
	return nil
}

// writeCanonical writes {"a":…,"p":{…},"t":…,"v":…} to o: the top-level
// keys are already in code point order, and the fields are written in code
// point order of their names. tenantJSON is the tenant as a JSON string.
func (ca *compiledAction) writeCanonical(o *canonicalOut, tenantJSON []byte, version int, nb *normBuffer) error {
	if ca.err != nil {
		return fmt.Errorf("action: %w", ca.err)
	}
	o.buf = append(o.buf, ca.head...)
	for n, i := range ca.order {
		if n > 0 {
			o.buf = append(o.buf, ',')
		}
		o.buf = append(o.buf, ca.keys[i]...)
		if err := o.appendString(nb.value(i)); err != nil {
			return fmt.Errorf("field %q: %w", ca.action.Fields[i].Name, err)
		}
	}
	o.buf = append(o.buf, `},"t":`...)
	o.appendRaw(tenantJSON)
	o.buf = append(o.buf, `,"v":`...)
	o.buf = strconv.AppendInt(o.buf, int64(version), 10)
	o.buf = append(o.buf, '}')
	return nil
}

// Deriver computes keys for one schema and secret, reusing its buffers and
// HMAC state between calls. It is not safe for concurrent use; give each
// goroutine its own.
type Deriver struct {
	schema  *Schema
	actions []*compiledAction
	mac     hash.Hash
	parser  parser
	norm    normBuffer
	tenant  []byte
	buf     []byte
	sum     []byte
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
	ca, v, err := d.prepare(tenant, action, payload)
	if err != nil {
		return dst, err
	}
	return d.appendKeyValue(dst, ca, d.tenant, v, false)
}

// Derive computes the key of one intent with the full explanation.
func (d *Deriver) Derive(in Intent) (*Result, error) {
	ca, payload, err := d.prepare(in.Tenant, in.Action, in.Payload)
	if err != nil {
		return nil, err
	}
	key, err := d.appendKeyValue(nil, ca, d.tenant, payload, true)
	if err != nil {
		return nil, err
	}
	action := ca.action
	res := &Result{
		Key:       string(key),
		Canonical: bytes.Clone(d.buf),
		Version:   d.schema.Version,
		Tenant:    in.Tenant,
		Action:    in.Action,
		Fields:    make([]FieldResult, len(action.Fields)),
	}
	for i, f := range action.Fields {
		v, _ := payload.Get(f.Name)
		res.Fields[i] = FieldResult{Name: f.Name, Rule: f.Rule, Raw: bytes.Clone(v.Raw), Normalized: string(d.norm.value(i))}
	}
	for _, m := range payload.Members() {
		if name := m.Name(); !action.reads(name) {
			res.Ignored = append(res.Ignored, name)
		}
	}
	res.Warnings = ca.warnings(res.Warnings, payload, &d.norm)
	return res, nil
}

// warnings appends the warnings about an intent whose fields n holds.
func (ca *compiledAction) warnings(dst []Warning, payload Value, n *normBuffer) []Warning {
	for _, i := range ca.cents {
		f := ca.action.Fields[i]
		v, _ := payload.Get(f.Name)
		if w, ok := alreadyCentsWarning(f, v, n.value(i)); ok {
			dst = append(dst, w)
		}
	}
	return dst
}

// prepare parses the payload, finds the action and encodes the tenant into
// d.tenant.
func (d *Deriver) prepare(tenant, action string, payload []byte) (*compiledAction, Value, error) {
	d.release()
	v, err := parsePayload(&d.parser, payload)
	if err != nil {
		return nil, Value{}, err
	}
	ca, err := d.lookupAction(action)
	if err != nil {
		return nil, Value{}, err
	}
	if d.tenant, err = appendString(d.tenant[:0], tenant); err != nil {
		return nil, Value{}, &Error{Err: fmt.Errorf("tenant: %w", err)}
	}
	return ca, v, nil
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

// appendKeyValue appends the hex key. With keep set, d.buf holds the whole
// canonical JSON afterwards (for an explanation); without, it is hashed in
// pieces.
func (d *Deriver) appendKeyValue(dst []byte, ca *compiledAction, tenantJSON []byte, payload Value, keep bool) ([]byte, error) {
	if err := ca.normalize(&d.norm, payload); err != nil {
		return dst, err
	}
	d.mac.Reset()
	out := canonicalOut{buf: d.buf[:0]}
	if !keep {
		out.mac = d.mac
	}
	err := ca.writeCanonical(&out, tenantJSON, d.schema.Version, &d.norm)
	d.buf = out.buf
	if err != nil {
		return dst, &Error{Err: err}
	}
	d.mac.Write(d.buf)
	d.sum = d.mac.Sum(d.sum[:0])
	return hex.AppendEncode(dst, d.sum), nil
}

// release drops buffers a huge previous intent made big, so a Deriver's
// memory returns to its steady size.
func (d *Deriver) release() {
	if cap(d.buf) > maxKeptBuffer || cap(d.norm.data) > maxKeptBuffer || cap(d.norm.scratch) > maxKeptBuffer {
		d.buf, d.norm.data, d.norm.scratch = nil, nil, nil
	}
	d.parser.release()
}

// reads reports whether a payload field takes part in the key: as a field of
// the action, or as the key-type field a rule consults (pix_key_typed).
func (a *Action) reads(name string) bool {
	for _, f := range a.Fields {
		if f.Name == name || f.TypeField == name {
			return true
		}
	}
	return false
}
