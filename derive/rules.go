package derive

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/idemcheck/idemcheck/derive/internal/pystr"
)

// RuleInput is what a rule sees of the field it normalizes.
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

var rules = map[string]RuleFunc{}

// registerRule adds a normalization rule. Rules are registered from init
// functions in this package (rules.go, rules_br.go), so a schema naming an
// unknown rule fails at load time.
func registerRule(name string, fn RuleFunc) {
	if _, dup := rules[name]; dup {
		panic("derive: rule registered twice: " + name)
	}
	rules[name] = fn
}

func lookupRule(name string) (RuleFunc, bool) {
	fn, ok := rules[name]
	return fn, ok
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
	registerRule("text", ruleText)
	registerRule("cents", ruleCents)
	registerRule("pix_key", rulePixKey)
	registerRule("trim", ruleTrim)
	registerRule("trim_lower", ruleTrimLower)
}

// pythonMaxIntDigits is CPython's default limit on int/str conversions
// (sys.get_int_max_str_digits()); the reference fails beyond it.
const pythonMaxIntDigits = 4300

// ruleText keeps strings as they are and writes JSON integers as their
// decimal digits. Floats, booleans and null are refused: the reference would
// hash str(2.0) == "2.0" or "True", which never matches the id it stands for.
func ruleText(in RuleInput) (string, error) {
	switch in.Value.Kind {
	case KindString:
		s, _ := in.Value.Text()
		return s, nil
	case KindNumber:
		if !in.Value.integer {
			return "", fmt.Errorf("want a string or an integer, got the non-integer number %s", in.Value.Raw)
		}
		return canonicalInteger(string(in.Value.Raw))
	}
	return "", fmt.Errorf("want a string or an integer, got %s", describeValue(in.Value))
}

// canonicalInteger writes a JSON integer literal as Python's str(int(lit)).
func canonicalInteger(lit string) (string, error) {
	digits := strings.TrimPrefix(lit, "-")
	if len(digits) > pythonMaxIntDigits {
		return "", fmt.Errorf("integer has %d digits, more than the %d Python converts", len(digits), pythonMaxIntDigits)
	}
	if digits == "0" {
		return "0", nil
	}
	return lit, nil
}

// rulePixKey: NFC, Python strip, Python lower; then an e-mail key (has '@')
// is kept as is and any other key keeps only what str.isalnum() accepts.
func rulePixKey(in RuleInput) (string, error) {
	s, err := in.String()
	if err != nil {
		return "", err
	}
	return normalizePixKey(s), nil
}

func normalizePixKey(s string) string {
	s = pystr.Lower(pystr.Strip(norm.NFC.String(s)))
	if strings.Contains(s, "@") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if pystr.IsAlnum(r) {
			return r
		}
		return -1
	}, s)
}

// ruleTrim removes Python str.strip() whitespace and nothing else.
func ruleTrim(in RuleInput) (string, error) {
	s, err := in.String()
	if err != nil {
		return "", err
	}
	return pystr.Strip(s), nil
}

// ruleTrimLower strips and lowercases the way Python does.
func ruleTrimLower(in RuleInput) (string, error) {
	s, err := in.String()
	if err != nil {
		return "", err
	}
	return pystr.Lower(pystr.Strip(s)), nil
}

func describeValue(v Value) string {
	switch v.Kind {
	case KindBool, KindNull:
		return string(v.Raw)
	case KindNumber:
		return "the number " + string(v.Raw)
	case KindString:
		return "a string"
	}
	return "an " + v.Kind.String()
}
