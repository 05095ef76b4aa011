package derive

import (
	"bytes"
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// addVectorSeeds seeds a fuzz target with every reference payload.
func addVectorSeeds(f *testing.F, add func(v vector)) {
	for _, v := range readVectors(f, "../testdata/derive-v1.jsonl") {
		add(v)
	}
}

// FuzzCanonical: for any JSON the parser accepts, the encoder never fails or
// panics, its output is valid JSON that decodes to the same value, and
// encoding is a fixed point.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `"\u2028<&>"`, `{"b":1,"a":[true,null,-0.5e3]}`,
		`{"\ud83d\ude00":1,"\uffff":2}`, `"\u0000\u001f\u007f"`, `{"a":{"b":{"c":[1,2,{"d":"é"}]}}}`} {
		f.Add([]byte(s))
	}
	addVectorSeeds(f, func(v vector) { f.Add([]byte(v.PayloadJSON)) })
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data)
		if err != nil {
			return
		}
		out, err := AppendCanonical(nil, v.Interface())
		if err != nil {
			t.Fatalf("AppendCanonical(%q): %v", data, err)
		}
		if !json.Valid(out) || !utf8.Valid(out) {
			t.Fatalf("invalid output %q for %q", out, data)
		}
		if want, got := decodeStd(t, data), decodeStd(t, out); !reflect.DeepEqual(want, got) {
			t.Fatalf("value changed:\n in  %q\n out %q", data, out)
		}
		v2, err := ParseJSON(out)
		if err != nil {
			t.Fatalf("own output does not parse: %q: %v", out, err)
		}
		out2, _ := AppendCanonical(nil, v2.Interface())
		if string(out2) != string(out) {
			t.Fatalf("not a fixed point: %q then %q", out, out2)
		}
	})
}

func decodeStd(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("encoding/json rejects %q: %v", data, err)
	}
	return v
}

// FuzzCanonicalString: any valid UTF-8 string round-trips through the
// encoder, and only the escapes Python writes appear.
func FuzzCanonicalString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\x00\x1f\x7f", "\u2028\u2029", "é😀", "\ufeff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := CanonicalString(s)
		if !utf8.ValidString(s) {
			if err == nil {
				t.Fatalf("invalid UTF-8 %q accepted", s)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		var back string
		if err := json.Unmarshal([]byte(out), &back); err != nil || back != s {
			t.Fatalf("%q -> %s -> %q (%v)", s, out, back, err)
		}
		if strings.Count(out, `\u`) > strings.Count(s, "\\u")+countControls(s) {
			t.Fatalf("unexpected \\u escape in %s", out)
		}
	})
}

func countControls(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 {
			n++
		}
	}
	return n
}

// FuzzNormalizeIdempotent: normalizing a normalized value changes nothing,
// so a stored normalized value derives the same key again.
func FuzzNormalizeIdempotent(f *testing.F) {
	for _, s := range []string{" José@Ex.com\f", "ß83533İ", "ΟΔΟΣ Σ", "\u3000NF-1\u2028", "(11) 9531-3839", "Jose\u0301",
		"J\u030c@X", "\u1100-\u1161", "A\u030a", "Σ@x", "ǅ", "\u0345"} {
		f.Add(s)
	}
	addVectorSeeds(f, func(v vector) {
		p, err := ParseJSON([]byte(v.PayloadJSON))
		if err != nil {
			return
		}
		for _, m := range p.Members() {
			if s, ok := m.Value.Text(); ok {
				f.Add(s)
			}
		}
	})
	f.Fuzz(func(t *testing.T, s string) {
		for _, rule := range []string{"text", "pix_key", "trim", "trim_lower"} {
			once, err := NormalizeString(rule, s)
			if err != nil {
				// A valid string is refused only for a reason of its own:
				// a character newer than the reference's Unicode, or a
				// pix_key the reference would leave unnormalized.
				if reason, _ := RefusalReason(err); utf8.ValidString(s) && reason != ReasonNewerUnicode && reason != ReasonUnnormalizedKey {
					t.Fatalf("%s(%+q): %v", rule, s, err)
				}
				continue
			}
			twice, err := NormalizeString(rule, once)
			if err != nil || twice != once {
				t.Fatalf("%s not idempotent: %+q -> %+q -> %+q (%v)", rule, s, once, twice, err)
			}
		}
	})
}

// FuzzCents: an accepted amount string is exactly 100 times its decimal
// value, surrounding spaces do not matter, and nothing panics.
func FuzzCents(f *testing.F) {
	for _, s := range []string{"12.34", " 7.10 ", "-3.25", "1e-2", "2.50e1", "10.005", "NaN", "1_000", "١٠", ".5", "5.", "+0", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		cents, err := NormalizeString("cents", s)
		if err != nil {
			return
		}
		r, ok := new(big.Rat).SetString(strings.Trim(s, " \t"))
		if !ok {
			t.Fatalf("cents(%q) = %s but big.Rat rejects it", s, cents)
		}
		r.Mul(r, big.NewRat(100, 1))
		if !r.IsInt() || r.Num().String() != cents {
			t.Fatalf("cents(%q) = %s, exact value is %s", s, cents, r.RatString())
		}
		spaced, err := NormalizeString("cents", " \t"+s+" ")
		if err != nil || spaced != cents {
			t.Fatalf("cents with spaces: %q, %v", spaced, err)
		}
	})
}

// FuzzDerivePaths: the explaining path (Schema.Derive) and the fast path
// (Deriver, used by batch) agree on every payload: same key or both refuse.
func FuzzDerivePaths(f *testing.F) {
	addVectorSeeds(f, func(v vector) { f.Add(v.Tenant, v.Action, []byte(v.PayloadJSON)) })
	s := DefaultSchema()
	d, _ := s.NewDeriver([]byte("fuzz"))
	f.Fuzz(func(t *testing.T, tenant, action string, payload []byte) {
		res, err := s.Derive([]byte("fuzz"), Intent{Tenant: tenant, Action: action, Payload: payload})
		key, fastErr := d.Key(tenant, action, payload)
		if (err == nil) != (fastErr == nil) {
			t.Fatalf("Derive err %v, Deriver err %v", err, fastErr)
		}
		if err == nil && res.Key != key {
			t.Fatalf("Derive %s, Deriver %s", res.Key, key)
		}
	})
}

// FuzzBatch: whatever the input, the serial and parallel batch paths give
// the same output, one line per input line, each valid JSON.
func FuzzBatch(f *testing.F) {
	f.Add([]byte(`{"id":1,"tenant":"t","action":"email.cobranca","payload":{"cliente_id":"1","referencia_intencao":"r","template":"x"}}` + "\n\nnot json\r\n{}"))
	f.Add([]byte("\n\n\n"))
	f.Add([]byte(`{"tenant":"t","action":"pix.cobranca","payload":"{\"cliente_id\":1,\"valor\":1,\"chave_pix_destino\":\"k\",\"referencia_intencao\":\"r\"}"}`))
	s := DefaultSchema()
	f.Fuzz(func(t *testing.T, in []byte) {
		var serial, parallel bytes.Buffer
		st1, err1 := s.RunBatch([]byte("k"), bytes.NewReader(in), &serial, BatchOptions{Workers: 1})
		st3, err3 := s.RunBatch([]byte("k"), bytes.NewReader(in), &parallel, BatchOptions{Workers: 3})
		if err1 != nil || err3 != nil {
			t.Fatalf("errors %v %v", err1, err3)
		}
		if serial.String() != parallel.String() || st1 != st3 {
			t.Fatalf("serial and parallel differ:\n%q\n%q", serial.String(), parallel.String())
		}
		want := bytes.Count(in, []byte("\n"))
		if len(in) > 0 && in[len(in)-1] != '\n' {
			want++
		}
		if st1.Lines != want || bytes.Count(serial.Bytes(), []byte("\n")) != want {
			t.Fatalf("%d input lines, %d answered, output %q", want, st1.Lines, serial.String())
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(serial.Bytes(), []byte("\n")), []byte("\n")) {
			if want > 0 && !json.Valid(line) {
				t.Fatalf("invalid output line %q", line)
			}
		}
	})
}

// FuzzRuleViews: a rule's copy-free shortcut, when it answers, answers
// exactly what the rule computes.
func FuzzRuleViews(f *testing.F) {
	for _, s := range []string{`"abc"`, `" a@b.c "`, `"ABC"`, `"a-b"`, `"\u00e9"`, `"a\\u0041"`, `"\u001c x\u0085"`, `" 12 "`, `7`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := ParseJSON(raw)
		if err != nil {
			return
		}
		for name, r := range rules {
			if r.view == nil {
				continue
			}
			in := RuleInput{Field: Field{Name: "f", Rule: name}, Value: v, Payload: Value{Kind: KindObject, Raw: []byte("{}")}}
			view, ok := r.view(&in)
			if !ok {
				continue
			}
			want, err := r.fn(in)
			if err != nil || string(view) != want {
				t.Fatalf("%s(%s): view %q, rule %q (%v)", name, raw, view, want, err)
			}
		}
	})
}
