package derive

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/idemcheck/idemcheck/derive/internal/pystr"
)

// RuleInput is what a rule sees of the field it normalizes. Its Values point
// into buffers that are reused after the call: a rule must not keep them.
type RuleInput struct {
	Field   Field // the schema field: name, rule, type_field
	Value   Value // the field's JSON value, exact
	Payload Value // the whole payload object, to read a sibling such as Field.TypeField
}

// Sibling returns the payload field named name.
func (in RuleInput) Sibling(name string) (Value, bool) { return in.Payload.Get(name) }

// String returns the field's value if it is a JSON string, or an error naming
// the kind it has instead.
func (in RuleInput) String() (string, error) {
	s, ok := in.Value.Text()
	if !ok {
		return "", fmt.Errorf("want a string, got %s", describeValue(in.Value))
	}
	return s, nil
}

// RuleFunc normalizes one field to the string that goes into the canonical
// JSON. It must be deterministic and must refuse, not guess, when the input
// is ambiguous.
type RuleFunc func(in RuleInput) (string, error)

// appendRuleFunc is the allocation-free form of a rule used by the batch
// path: it appends the normalized value to dst and may use *scratch as
// working space.
type appendRuleFunc func(dst []byte, in *RuleInput, scratch *[]byte) ([]byte, error)

type rule struct {
	fn       RuleFunc
	appendFn appendRuleFunc
	// view, when set, answers for the common inputs a rule leaves as a
	// slice of themselves, without copying: a huge value then costs no
	// second copy. It reports false when the rule must run.
	view viewRuleFunc
}

// viewRuleFunc returns what the rule would append, as a slice of the
// input's raw bytes, when that is possible.
type viewRuleFunc func(in *RuleInput) ([]byte, bool)

var rules = map[string]rule{}

// registerRule adds a normalization rule. Rules are registered from init
// functions in this package (rules.go, rules_br.go), so a schema naming an
// unknown rule fails at load time.
func registerRule(name string, fn RuleFunc) {
	if _, dup := rules[name]; dup {
		panic("derive: rule registered twice: " + name)
	}
	rules[name] = rule{fn: fn, appendFn: func(dst []byte, in *RuleInput, _ *[]byte) ([]byte, error) {
		s, err := fn(*in)
		return append(dst, s...), err
	}}
}

// registerAppendRule adds a rule written in append form; its RuleFunc form
// is derived from it, so both paths give the same output.
func registerAppendRule(name string, fn appendRuleFunc) {
	registerRule(name, func(in RuleInput) (string, error) {
		var scratch []byte
		out, err := fn(nil, &in, &scratch)
		return string(out), err
	})
	r := rules[name]
	r.appendFn = fn
	rules[name] = r
}

// registerView adds the copy-free shortcut of an already registered rule.
func registerView(name string, view viewRuleFunc) {
	r := rules[name]
	r.view = view
	rules[name] = r
}

func lookupRule(name string) (RuleFunc, bool) {
	r, ok := rules[name]
	return r.fn, ok
}

// RuleNames returns the names of all known rules, sorted.
func RuleNames() []string {
	names := make([]string, 0, len(rules))
	for n := range rules {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// NormalizeString applies the named rule to a bare string value, as if it
// were a payload field holding that JSON string.
func NormalizeString(rule, s string) (string, error) {
	fn, ok := lookupRule(rule)
	if !ok {
		return "", fmt.Errorf("unknown rule %q (known: %s)", rule, strings.Join(RuleNames(), ", "))
	}
	raw, err := appendString(nil, s)
	if err != nil {
		return "", err
	}
	in := RuleInput{
		Field:   Field{Name: "value", Rule: rule},
		Value:   Value{Kind: KindString, Raw: raw, escaped: true},
		Payload: Value{Kind: KindObject, Raw: []byte("{}")},
	}
	return fn(in)
}

func init() {
	registerAppendRule("text", appendText)
	registerAppendRule("cents", appendCents)
	registerAppendRule("pix_key", appendPixKey)
	registerAppendRule("trim", appendTrim)
	registerAppendRule("trim_lower", appendTrimLower)
	registerView("text", func(in *RuleInput) ([]byte, bool) { return plainString(in) })
	registerView("trim", viewTrim)
	registerView("trim_lower", viewTrimLower)
	registerView("pix_key", viewPixKey)
}

// plainString returns the inside of a JSON string value without escapes.
func plainString(in *RuleInput) ([]byte, bool) {
	if in.Value.Kind != KindString || in.Value.escaped {
		return nil, false
	}
	return in.Value.Raw[1 : len(in.Value.Raw)-1], true
}

func viewTrim(in *RuleInput) ([]byte, bool) {
	s, ok := plainString(in)
	return pystr.Strip(s), ok
}

// viewTrimLower: ASCII text without capitals is its own lowercase.
func viewTrimLower(in *RuleInput) ([]byte, bool) {
	s, ok := plainString(in)
	if !ok || !lowerASCII(s) {
		return nil, false
	}
	return pystr.Strip(s), true
}

// viewPixKey: ASCII without capitals is its own NFC and lowercase; it stays
// as it is when it is an e-mail key or all alphanumeric.
func viewPixKey(in *RuleInput) ([]byte, bool) {
	s, ok := plainString(in)
	if !ok || !lowerASCII(s) {
		return nil, false
	}
	s = pystr.Strip(s)
	if bytes.IndexByte(s, '@') >= 0 {
		return s, true
	}
	for _, c := range s {
		if !asciiAlnum[c] {
			return nil, false
		}
	}
	return s, true
}

// lowerASCII reports whether s is ASCII without capital letters.
func lowerASCII(s []byte) bool {
	for _, c := range s {
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// pythonMaxIntDigits is CPython's default limit on int/str conversions
// (sys.get_int_max_str_digits()); the reference fails beyond it.
const pythonMaxIntDigits = 4300

// appendText keeps strings as they are and writes JSON integers as their
// decimal digits. Floats, booleans and null are refused: the reference would
// hash str(2.0) == "2.0" or "True", which never matches the id it stands for.
func appendText(dst []byte, in *RuleInput, _ *[]byte) ([]byte, error) {
	switch in.Value.Kind {
	case KindString:
		return in.Value.appendText(dst), nil
	case KindNumber:
		if !in.Value.integer {
			return dst, refusal(ReasonNonIntegerID, fmt.Errorf("want a string or an integer, got the non-integer number %s", plainValue(in.Value.Raw)))
		}
		return appendInteger(dst, in.Value.Raw)
	}
	return dst, refusal(ReasonNonIntegerID, fmt.Errorf("want a string or an integer, got %s", describeValue(in.Value)))
}

// appendInteger writes a JSON integer literal as Python's str(int(lit)).
func appendInteger(dst, lit []byte) ([]byte, error) {
	digits := bytes.TrimPrefix(lit, []byte("-"))
	if len(digits) > pythonMaxIntDigits {
		return dst, refusal(ReasonIntegerDigits, fmt.Errorf("integer has %d digits, more than the %d Python converts", len(digits), pythonMaxIntDigits))
	}
	if len(digits) == 1 && digits[0] == '0' {
		return append(dst, '0'), nil
	}
	return append(dst, lit...), nil
}

// stringArg returns the field's string, or refuses a value that is not a
// JSON string. A string without escapes is returned in place (a huge value
// is not copied); one with escapes is decoded into *scratch. Either way the
// result is read-only.
func stringArg(in *RuleInput, scratch *[]byte) ([]byte, error) {
	if in.Value.Kind != KindString {
		return nil, fmt.Errorf("want a string, got %s", describeValue(in.Value))
	}
	if !in.Value.escaped {
		return in.Value.Raw[1 : len(in.Value.Raw)-1], nil
	}
	*scratch = in.Value.appendText((*scratch)[:0])
	return *scratch, nil
}

// appendPixKey: NFC (CPython's, see pystr.AppendNFC), Python strip, Python
// lower; then an e-mail key (has '@') is kept as is and any other key keeps
// only what str.isalnum() accepts. That is the reference's rule, step for
// step. Its result is not always NFC (see checkNormalized): such a key is
// refused, never normalized once more.
func appendPixKey(dst []byte, in *RuleInput, scratch *[]byte) ([]byte, error) {
	s, err := stringArg(in, scratch)
	if err != nil {
		return dst, err
	}
	if r := pystr.FirstNewer(s); r >= 0 {
		return dst, newerRuneError(r)
	}
	if !belowCombining(s) && !pystr.IsNFC(s) {
		var runes []rune
		s = pystr.AppendNFC(make([]byte, 0, len(s)), s, &runes)
	}
	start := len(dst)
	s = pystr.Strip(s)
	dst = pystr.AppendLower(slices.Grow(dst, len(s)), s)
	key := dst[start:]
	if bytes.IndexByte(key, '@') >= 0 {
		return dst, checkNormalized(key, scratch)
	}
	// Keep alphanumerics, compacting in place.
	w := start
	for r := 0; r < len(key); {
		if c := key[r]; c < utf8.RuneSelf {
			if asciiAlnum[c] {
				dst[w] = c
				w++
			}
			r++
			continue
		}
		c, n := utf8.DecodeRune(key[r:])
		if pystr.IsAlnum(c) {
			w += copy(dst[w:], key[r:r+n])
		}
		r += n
	}
	return dst[:w], checkNormalized(dst[start:w], scratch)
}

// belowCombining reports whether every rune of b is below U+0300, the first
// combining mark: such text is always NFC, as nothing in it can compose.
// Checking bytes suffices: U+0300 is the first rune whose UTF-8 lead byte is
// 0xCC or above, and continuation bytes are below 0xC0.
func belowCombining(b []byte) bool {
	for _, c := range b {
		if c >= 0xcc {
			return false
		}
	}
	return true
}

// checkNormalized refuses a pix_key result that NFC would change. The
// reference normalizes before it lowercases and drops characters, and those
// steps can leave text that composes: "J\u030c" lowers to "j\u030c" (NFC:
// "ǰ"), and dropping the mark of "\u1100\u0301\u1161" leaves the jamo
// "\u1100\u1161" (NFC: "가"). The reference hashes such a value as it is,
// so the rule is not idempotent there: a service that stores the normalized
// key and derives again, or normalizes once more, gets another key. Giving
// the reference's key would pass that on; giving the renormalized one would
// differ from the reference. Neither is safe, so the input is refused.
func checkNormalized(key []byte, scratch *[]byte) error {
	if belowCombining(key) || pystr.IsNFC(key) {
		return nil
	}
	var runes []rune
	*scratch = pystr.AppendNFC((*scratch)[:0], key, &runes)
	if bytes.Equal(*scratch, key) {
		return nil
	}
	return refusal(ReasonUnnormalizedKey, fmt.Errorf(
		"the normalized key %s is not NFC: lowercasing or dropping characters left runes that compose into %s; the reference would hash it unnormalized, so it would not derive the same key again: send the key in NFC without the characters the rule drops",
		quoteValue(key), quoteValue(*scratch)))
}

var asciiAlnum = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = pystr.IsAlnum(rune(c))
	}
	return t
}()

// appendTrim removes Python str.strip() whitespace and nothing else.
func appendTrim(dst []byte, in *RuleInput, scratch *[]byte) ([]byte, error) {
	s, err := stringArg(in, scratch)
	if err != nil {
		return dst, err
	}
	return append(dst, pystr.Strip(s)...), nil
}

// appendTrimLower strips and lowercases the way Python does.
func appendTrimLower(dst []byte, in *RuleInput, scratch *[]byte) ([]byte, error) {
	s, err := stringArg(in, scratch)
	if err != nil {
		return dst, err
	}
	if r := pystr.FirstNewer(s); r >= 0 {
		return dst, newerRuneError(r)
	}
	s = pystr.Strip(s)
	return pystr.AppendLower(slices.Grow(dst, len(s)), s), nil
}

// newerRuneError refuses a character that Unicode assigned after the
// version of the reference's Python (pystr.UnicodeVersion): a later Python
// lowercases, classifies or normalizes it differently, so the key would
// depend on which Python runs the reference.
func newerRuneError(r rune) error {
	return refusal(ReasonNewerUnicode, fmt.Errorf("character %U is newer than Unicode %s, the version of the reference's Python %s; its case and normalization differ between Python versions",
		r, pystr.UnicodeVersion, pystr.PythonVersion))
}

func describeValue(v Value) string {
	switch v.Kind {
	case KindBool, KindNull:
		return string(v.Raw)
	case KindNumber:
		return "the number " + plainValue(v.Raw)
	case KindString:
		return "a string"
	}
	return "an " + v.Kind.String()
}
