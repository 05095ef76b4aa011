package derive

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the type of a JSON value.
type Kind uint8

// JSON value kinds.
const (
	KindInvalid Kind = iota
	KindString
	KindNumber
	KindBool
	KindNull
	KindArray
	KindObject
)

func (k Kind) String() string {
	switch k {
	case KindString:
		return "string"
	case KindNumber:
		return "number"
	case KindBool:
		return "boolean"
	case KindNull:
		return "null"
	case KindArray:
		return "array"
	case KindObject:
		return "object"
	}
	return "invalid"
}

// Value is one JSON value kept as its exact source text, so number literals
// are never rounded through float64 and strings are decoded only when a rule
// asks for them. Values come from ParseJSON (or the payload parser) and are
// valid JSON: UTF-8 throughout, no lone surrogate escapes, no duplicate
// object keys.
type Value struct {
	Kind Kind
	// Raw is the value's exact source text.
	Raw []byte

	escaped bool     // string contains backslash escapes
	integer bool     // number literal has no fraction or exponent
	kids    []Member // object members in source order, or array elements (without names)
}

// Member is one name/value pair of a JSON object.
type Member struct {
	rawName []byte // name between the quotes, still escaped if escaped is set
	escaped bool
	Value   Value
}

// Name returns the member's decoded name.
func (m *Member) Name() string {
	if !m.escaped {
		return string(m.rawName)
	}
	return unescape(m.rawName)
}

func (m *Member) nameIs(name string) bool {
	if !m.escaped {
		return string(m.rawName) == name
	}
	return m.Name() == name
}

// Text returns the decoded string of a string value.
func (v Value) Text() (string, bool) {
	if v.Kind != KindString {
		return "", false
	}
	inner := v.Raw[1 : len(v.Raw)-1]
	if !v.escaped {
		return string(inner), true
	}
	return unescape(inner), true
}

// appendText appends the decoded string of a string value to dst.
func (v Value) appendText(dst []byte) []byte {
	inner := v.Raw[1 : len(v.Raw)-1]
	if !v.escaped {
		return append(dst, inner...)
	}
	// Decoded text is never longer than its escaped form: one allocation.
	return appendUnescaped(slices.Grow(dst, len(inner)), inner)
}

// Literal returns the exact literal of a number value, e.g. "34831.95".
func (v Value) Literal() (string, bool) {
	if v.Kind != KindNumber {
		return "", false
	}
	return string(v.Raw), true
}

// IsInteger reports whether v is a number literal without fraction or
// exponent (what Python's json module reads as an int).
func (v Value) IsInteger() bool { return v.Kind == KindNumber && v.integer }

// Members returns an object's members in source order.
func (v Value) Members() []Member {
	if v.Kind != KindObject {
		return nil
	}
	return v.kids
}

// Elems returns an array's elements.
func (v Value) Elems() []Value {
	if v.Kind != KindArray {
		return nil
	}
	out := make([]Value, len(v.kids))
	for i := range v.kids {
		out[i] = v.kids[i].Value
	}
	return out
}

// Get returns the member of an object named name.
func (v Value) Get(name string) (Value, bool) {
	for i := range v.kids {
		if v.kids[i].nameIs(name) {
			return v.kids[i].Value, true
		}
	}
	return Value{}, false
}

// Interface converts v to the generic Go form used by AppendCanonical:
// string, json.Number-like NumberLiteral, bool, nil, []any, map[string]any.
func (v Value) Interface() any {
	switch v.Kind {
	case KindString:
		s, _ := v.Text()
		return s
	case KindNumber:
		return NumberLiteral(v.Raw)
	case KindBool:
		return v.Raw[0] == 't'
	case KindArray:
		out := make([]any, len(v.kids))
		for i := range v.kids {
			out[i] = v.kids[i].Value.Interface()
		}
		return out
	case KindObject:
		out := make(map[string]any, len(v.kids))
		for i := range v.kids {
			out[v.kids[i].Name()] = v.kids[i].Value.Interface()
		}
		return out
	}
	return nil
}

// SyntaxError describes malformed JSON input.
type SyntaxError struct {
	Offset int // byte offset of the problem
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at byte %d: %s", e.Offset, e.Msg)
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 512

// parser reads JSON into Values. Its slabs are reused between parses by a
// Deriver, so Values from one parse are only valid until the next.
type parser struct {
	data  []byte
	pos   int
	depth int
	stack []Member // members of the objects and arrays being parsed
	kids  []Member // finished members, sliced by Value.kids
}

// release drops slabs a huge document made big.
func (p *parser) release() {
	const maxKept = 1 << 14 // members
	if cap(p.stack) > maxKept || cap(p.kids) > maxKept {
		p.stack, p.kids = nil, nil
	}
}

func (p *parser) reset(data []byte) {
	p.data, p.pos, p.depth = data, 0, 0
	p.stack = p.stack[:0]
	p.kids = p.kids[:0]
}

// parseDocument parses data as exactly one JSON value with optional
// surrounding whitespace.
func (p *parser) parseDocument(data []byte) (Value, error) {
	p.reset(data)
	p.skipSpace()
	v, err := p.parseValue()
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return Value{}, p.errorf("unexpected %s after the value", p.describe())
	}
	return v, nil
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	c := p.data[p.pos]
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) parseValue() (Value, error) {
	if p.pos >= len(p.data) {
		return Value{}, p.errorf("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '"':
		start := p.pos
		escaped, err := p.scanString()
		if err != nil {
			return Value{}, err
		}
		return Value{Kind: KindString, Raw: p.data[start:p.pos], escaped: escaped}, nil
	case c == '{':
		return p.parseObject()
	case c == '[':
		return p.parseArray()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.parseNumber()
	case c == 't':
		return p.parseLiteral("true", KindBool)
	case c == 'f':
		return p.parseLiteral("false", KindBool)
	case c == 'n':
		return p.parseLiteral("null", KindNull)
	}
	return Value{}, p.errorf("unexpected %s", p.describe())
}

func (p *parser) parseLiteral(word string, kind Kind) (Value, error) {
	end := p.pos + len(word)
	if end > len(p.data) || string(p.data[p.pos:end]) != word {
		return Value{}, p.errorf("unexpected %s", p.describe())
	}
	v := Value{Kind: kind, Raw: p.data[p.pos:end]}
	p.pos = end
	return v, nil
}

// parseNumber accepts exactly RFC 8259 numbers: no NaN, Infinity, leading
// zeros, or bare dots.
func (p *parser) parseNumber() (Value, error) {
	start := p.pos
	d := p.data
	i := p.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		p.pos = i
		return Value{}, p.errorf("invalid number")
	}
	integer := true
	if i < len(d) && d[i] == '.' {
		integer = false
		i++
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == j {
			p.pos = i
			return Value{}, p.errorf("invalid number: no digits after the decimal point")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integer = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == j {
			p.pos = i
			return Value{}, p.errorf("invalid number: no digits in the exponent")
		}
	}
	p.pos = i
	return Value{Kind: KindNumber, Raw: d[start:i], integer: integer}, nil
}

// plainASCII marks the bytes a string can hold as they are: printable
// ASCII other than '"' and '\\'.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanString moves past a string starting at p.pos, validating UTF-8,
// escapes and surrogate pairs. It reports whether the string has escapes.
func (p *parser) scanString() (bool, error) {
	d := p.data
	i := p.pos + 1
	escaped := false
	for {
		// Fast path over plain ASCII.
		for i < len(d) && plainASCII[d[i]] {
			i++
		}
		if i >= len(d) {
			p.pos = i
			return false, p.errorf("unterminated string")
		}
		c := d[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return escaped, nil
		case c == '\\':
			escaped = true
			n, err := p.scanEscape(i)
			if err != nil {
				return false, err
			}
			i += n
		case c < 0x20:
			p.pos = i
			return false, p.errorf("control character 0x%02x in string must be escaped", c)
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size <= 1 {
				p.pos = i
				return false, refusal(ReasonInvalidText, p.errorf("invalid UTF-8"))
			}
			i += size
		}
	}
}

// scanEscape validates the escape at d[i] (a backslash) and returns its
// length, pairing \uD800-\uDBFF with a following low surrogate.
func (p *parser) scanEscape(i int) (int, error) {
	d := p.data
	if i+1 >= len(d) {
		p.pos = i
		return 0, p.errorf("unterminated string")
	}
	switch d[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
		r, ok := hex4(d[i+2:])
		if !ok {
			p.pos = i
			return 0, p.errorf(`invalid \u escape`)
		}
		if !utf16.IsSurrogate(r) {
			return 6, nil
		}
		if r < 0xdc00 {
			if i+7 < len(d) && d[i+6] == '\\' && d[i+7] == 'u' {
				if lo, ok := hex4(d[i+8:]); ok && lo >= 0xdc00 && lo <= 0xdfff {
					return 12, nil
				}
			}
		}
		p.pos = i
		// Python reads it, and drops it where a rule keeps only
		// alphanumerics; it is no character, so no key is built on it.
		return 0, refusal(ReasonInvalidText, p.errorf(`lone surrogate \u%04x`, r))
	}
	p.pos = i
	return 0, p.errorf("invalid escape \\%c", d[i+1])
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// unescape decodes the inside of a string already validated by scanString.
func unescape(b []byte) string {
	return string(appendUnescaped(make([]byte, 0, len(b)), b))
}

// appendUnescaped appends the decoded inside of a validated string.
func appendUnescaped(out, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch b[i+1] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, _ := hex4(b[i+2:])
			if utf16.IsSurrogate(r) {
				lo, _ := hex4(b[i+8:])
				r = utf16.DecodeRune(r, lo)
				i += 6
			}
			out = utf8.AppendRune(out, r)
			i += 6
			continue
		default: // '"', '\\', '/'
			out = append(out, b[i+1])
		}
		i += 2
	}
	return out
}

var errDepth = errors.New("nesting too deep")

// parseObject and parseArray restore the nesting depth and the member stack
// around the real work; plain code instead of defers, which would not be
// open-coded with this many returns.
func (p *parser) parseObject() (Value, error) {
	if p.depth++; p.depth > maxDepth {
		return Value{}, refusal(ReasonNestingDepth, p.errorf("%v (more than %d levels)", errDepth, maxDepth))
	}
	mark := len(p.stack)
	v, err := p.parseObjectMembers(mark)
	p.stack = p.stack[:mark]
	p.depth--
	return v, err
}

func (p *parser) parseObjectMembers(mark int) (Value, error) {
	start := p.pos
	p.pos++ // '{'
	var seen map[string]struct{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return Value{Kind: KindObject, Raw: p.data[start:p.pos]}, nil
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return Value{}, p.errorf("expected a member name, found %s", p.describe())
		}
		nameStart := p.pos
		escaped, err := p.scanString()
		if err != nil {
			return Value{}, err
		}
		m := Member{rawName: p.data[nameStart+1 : p.pos-1], escaped: escaped}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, p.errorf("expected ':' after a member name, found %s", p.describe())
		}
		p.pos++
		p.skipSpace()
		// Strings, the common case, are scanned here to spare a call and a
		// copy of the Value.
		if p.pos < len(p.data) && p.data[p.pos] == '"' {
			valStart := p.pos
			if m.Value.escaped, err = p.scanString(); err != nil {
				return Value{}, err
			}
			m.Value.Kind, m.Value.Raw = KindString, p.data[valStart:p.pos]
		} else if m.Value, err = p.parseValue(); err != nil {
			return Value{}, err
		}
		if isDuplicate(p.stack[mark:], &m, &seen) {
			p.pos = nameStart
			return Value{}, refusal(ReasonDuplicateMember, p.errorf("duplicate member name %s", quoteValue(m.Name())))
		}
		p.stack = append(p.stack, m)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.errorf("unexpected end of input in an object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			first := len(p.kids)
			p.kids = append(p.kids, p.stack[mark:]...)
			return Value{Kind: KindObject, Raw: p.data[start:p.pos], kids: p.kids[first:len(p.kids):len(p.kids)]}, nil
		default:
			return Value{}, p.errorf("expected ',' or '}' in an object, found %s", p.describe())
		}
	}
}

// isDuplicate refuses repeated member names: Python keeps the last one,
// which would let a second "valor" silently override the first. Small
// objects compare linearly; large ones switch to a map owned by the caller.
func isDuplicate(prev []Member, m *Member, seen *map[string]struct{}) bool {
	if len(prev) < 16 {
		if !m.escaped {
			for i := range prev {
				if !prev[i].escaped && bytes.Equal(prev[i].rawName, m.rawName) {
					return true
				}
			}
			if !anyEscaped(prev) {
				return false
			}
		}
		name := m.Name()
		for i := range prev {
			if prev[i].nameIs(name) {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]struct{}, 2*len(prev))
		for i := range prev {
			(*seen)[prev[i].Name()] = struct{}{}
		}
	}
	name := m.Name()
	if _, ok := (*seen)[name]; ok {
		return true
	}
	(*seen)[name] = struct{}{}
	return false
}

func anyEscaped(ms []Member) bool {
	for i := range ms {
		if ms[i].escaped {
			return true
		}
	}
	return false
}

func (p *parser) parseArray() (Value, error) {
	if p.depth++; p.depth > maxDepth {
		return Value{}, refusal(ReasonNestingDepth, p.errorf("%v (more than %d levels)", errDepth, maxDepth))
	}
	mark := len(p.stack)
	v, err := p.parseArrayElems(mark)
	p.stack = p.stack[:mark]
	p.depth--
	return v, err
}

func (p *parser) parseArrayElems(mark int) (Value, error) {
	start := p.pos
	p.pos++ // '['
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return Value{Kind: KindArray, Raw: p.data[start:p.pos]}, nil
	}
	for {
		v, err := p.parseValue()
		if err != nil {
			return Value{}, err
		}
		p.stack = append(p.stack, Member{Value: v})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.errorf("unexpected end of input in an array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			first := len(p.kids)
			p.kids = append(p.kids, p.stack[mark:]...)
			return Value{Kind: KindArray, Raw: p.data[start:p.pos], kids: p.kids[first:len(p.kids):len(p.kids)]}, nil
		default:
			return Value{}, p.errorf("expected ',' or ']' in an array, found %s", p.describe())
		}
	}
}

// ParseJSON parses data as one JSON value, keeping number literals exact
// and refusing invalid UTF-8, lone surrogates and duplicate member names.
func ParseJSON(data []byte) (Value, error) {
	var p parser
	return p.parseDocument(data)
}
