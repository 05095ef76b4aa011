package derive

import (
	"strconv"
	"strings"
	"testing"
)

func centsOf(t *testing.T, payloadValue string) (string, error) {
	t.Helper()
	v, err := ParseJSON([]byte(payloadValue))
	if err != nil {
		t.Fatalf("ParseJSON(%s): %v", payloadValue, err)
	}
	fn, _ := lookupRule("cents")
	return fn(RuleInput{Field: Field{Name: "valor", Rule: "cents"}, Value: v})
}

func TestCents(t *testing.T) {
	ok := map[string]string{
		`40895`:                               "4089500",
		`34831.95`:                            "3483195",
		`100.0`:                               "10000",
		`0.01`:                                "1",
		`-0`:                                  "0",
		`0`:                                   "0",
		`1e2`:                                 "10000",
		`1E-2`:                                "1",
		`"12.3400"`:                           "1234",
		`" 7.10 "`:                            "710",
		`"\t7.10"`:                            "710",
		`"+5.00"`:                             "500",
		`"-3.25"`:                             "-325",
		`"-0"`:                                "0",
		`"1e-2"`:                              "1",
		`"2.50e1"`:                            "2500",
		`"5E-1"`:                              "50",
		`"1E3"`:                               "100000",
		`".5"`:                                "50",
		`"5."`:                                "500",
		`"0.000"`:                             "0",
		`1234567890123456789012345678`:        "123456789012345678901234567800",
		`"12345678901234567890123456.78"`:     "1234567890123456789012345678",
		`"1e40"`:                              "1" + strings.Repeat("0", 42),
		`"100000000000000000000000000000000"`: "1" + strings.Repeat("0", 34),
	}
	for in, want := range ok {
		got, err := centsOf(t, in)
		if err != nil || got != want {
			t.Errorf("cents(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		`10.005`:                               "fraction of a cent",
		`"10.005"`:                             "fraction of a cent",
		`"0.001"`:                              "fraction of a cent",
		`0.001`:                                "fraction of a cent",
		`"NaN"`:                                "not a finite number",
		`"Infinity"`:                           "not a finite number",
		`"-inf"`:                               "not a finite number",
		`"1_000"`:                              "not a plain decimal",
		`"1,50"`:                               "not a plain decimal",
		`"١٠"`:                                 "not a plain decimal",
		`"１0"`:                                 "not a plain decimal",
		`"1/3"`:                                "not a plain decimal",
		`"abc"`:                                "not a plain decimal",
		`""`:                                   "empty amount",
		`"  "`:                                 "empty amount",
		`"\n5"`:                                "not a plain decimal",
		`"5\u00a0"`:                            "not a plain decimal",
		`"."`:                                  "not a plain decimal",
		`"e5"`:                                 "not a plain decimal",
		`"1e"`:                                 "not a plain decimal",
		`true`:                                 "got true",
		`null`:                                 "got null",
		`[]`:                                   "got an array",
		`{}`:                                   "got an object",
		`1e400`:                                "out of range",
		`0.1000000000000000055511151231257827`: "more digits than a JSON float",
		`"1e5000"`:                             "more than 4300 digits",
		`"1e99999999"`:                         "exponent out of range",
		`123456789012345678901234567890`:       "29 significant digits",
		`"123456789012345678901234567890.12"`:  "32 significant digits",
		`"1.0000000000000000000000000001"`:     "29 significant digits",
	}
	for in, want := range bad {
		got, err := centsOf(t, in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("cents(%s) = %q, %v; want an error mentioning %q", in, got, err, want)
		}
	}
}

func TestText(t *testing.T) {
	ok := map[string]string{
		`"\f x "`:            "\f x ",
		`42`:                 "42",
		`-0`:                 "0",
		`-7`:                 "-7",
		`797479743852449061`: "797479743852449061",
	}
	for in, want := range ok {
		v, _ := ParseJSON([]byte(in))
		got, err := rules["text"].fn(RuleInput{Value: v})
		if err != nil || got != want {
			t.Errorf("text(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{`2.0`, `1.5`, `1e3`, `true`, `false`, `null`, `[]`, `{}`, strings.Repeat("9", 4301)} {
		v, _ := ParseJSON([]byte(in))
		if got, err := rules["text"].fn(RuleInput{Value: v}); err == nil {
			t.Errorf("text(%.20s) = %q, want an error", in, got)
		}
	}
}

// TestPixKeyUnnormalizedResult: where the reference's pix_key leaves a value
// NFC would change, the key is refused, neither renormalized (a key the
// reference never gives) nor passed on (a rule that is not idempotent). The
// NFC itself blocks composition across a mark, for Hangul as for the rest.
func TestPixKeyUnnormalizedResult(t *testing.T) {
	refused := []struct{ in, reference string }{
		{"\u1100\u0301\u1161", "\u1100\u1161"}, // the mark blocks NFC, then isalnum drops it
		{"\uac00\u0301\u11a8", "\uac00\u11a8"}, // LV, a mark, T
		{"\u1100-\u1161", "\u1100\u1161"},      // jamo split by punctuation
		{"J\u030c@X.com", "j\u030c@x.com"},     // lowercasing makes a pair that composes
	}
	for _, tt := range refused {
		got, err := NormalizeString("pix_key", tt.in)
		if reason, _ := RefusalReason(err); reason != ReasonUnnormalizedKey {
			t.Errorf("pix_key(%+q) = %+q, %v; want the %s refusal", tt.in, got, err, ReasonUnnormalizedKey)
			continue
		}
		if !strings.Contains(err.Error(), strconv.Quote(tt.reference)) {
			t.Errorf("pix_key(%+q) refusal %q does not show the reference's value %+q", tt.in, err, tt.reference)
		}
	}
	kept := map[string]string{
		"\u1100\u0301\u1161@x": "\u1100\u0301\u1161@x", // blocked: stays as the reference's NFC leaves it
		"\uac00\u0301\u11a8@x": "\uac00\u0301\u11a8@x",
		"\u1100\u1161\u11a8":   "\uac01",       // composes in the first NFC, as in the reference
		"\u1161\u11a8":         "\u1161\u11a8", // no L: nothing composes, and IsNFC's "maybe" is resolved
	}
	for in, want := range kept {
		if got, err := NormalizeString("pix_key", in); err != nil || got != want {
			t.Errorf("pix_key(%+q) = %+q, %v; want %+q", in, got, err, want)
		}
	}
}

func TestStringRules(t *testing.T) {
	tests := []struct{ rule, in, want string }{
		{"pix_key", "\u001eJosé@Ex.com", "josé@ex.com"},
		{"pix_key", " José@Ex.com\f", "josé@ex.com"},
		{"pix_key", "Jose\u0301@EX.com", "josé@ex.com"}, // NFC first
		{"pix_key", "C96FA758-02B0-87F8-06FA-ADB10A248CFF ", "c96fa75802b087f806faadb10a248cff"},
		{"pix_key", "(11) 95318-3839", "11953183839"},
		{"pix_key", "+55 (11) 94187-1401", "5511941871401"},
		{"pix_key", "ß83533İ", "ß83533i"}, // İ lowers to i + U+0307, which isalnum drops
		{"pix_key", "½１中ﬁ", "½１中ﬁ"},
		{"pix_key", "@ΟΔΟΣ", "@οδος"[:len("@οδο")] + "ς"},
		{"trim", "\u3000 NF-1\u2028\x1c", "NF-1"},
		{"trim", "\u200bNF-1\ufeff", "\u200bNF-1\ufeff"},
		{"trim_lower", " LEMBRÉTE\r", "lembréte"},
		{"text", " X ", " X "},
	}
	for _, tt := range tests {
		got, err := NormalizeString(tt.rule, tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%s(%+q) = %+q, %v; want %+q", tt.rule, tt.in, got, err, tt.want)
		}
	}
	if _, err := NormalizeString("nope", "x"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown rule error = %v", err)
	}
	for _, rule := range []string{"pix_key", "trim", "trim_lower"} {
		v, _ := ParseJSON([]byte(`123`))
		fn, _ := lookupRule(rule)
		if _, err := fn(RuleInput{Value: v}); err == nil {
			t.Errorf("%s accepted a number", rule)
		}
	}
}
