package derive

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestCanonicalMatchesPython compares the encoder with json.dumps outputs
// recorded from CPython (testdata/gen_canonical_cases.py): key order by code
// point, raw non-ASCII, only the escapes Python writes.
func TestCanonicalMatchesPython(t *testing.T) {
	f, err := os.Open("testdata/canonical-cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var c struct{ In, Out string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		v, err := ParseJSON([]byte(c.In))
		if err != nil {
			t.Fatalf("ParseJSON(%s): %v", c.In, err)
		}
		got, err := AppendCanonical(nil, v.Interface())
		if err != nil {
			t.Fatalf("AppendCanonical(%s): %v", c.In, err)
		}
		if string(got) != c.Out {
			t.Errorf("canonical of %s\n got %s\nwant %s", c.In, got, c.Out)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d cases", n)
	}
}

func TestCanonicalStringEscapes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{"<&>'/", `"<&>'/"`},
		{"\"\\", `"\"\\"`},
		{"\n\r\t\b\f", `"\n\r\t\b\f"`},
		{"\x00\x01\x0b\x1f", `"\u0000\u0001\u000b\u001f"`},
		{"\x7f\u2028\u2029é😀", "\"\x7f\u2028\u2029é😀\""},
	}
	for _, tt := range tests {
		got, err := CanonicalString(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("CanonicalString(%+q) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	if _, err := CanonicalString("a\xffb"); err == nil {
		t.Error("invalid UTF-8 accepted")
	}
	if _, err := CanonicalString("\xed\xa0\x80"); err == nil {
		t.Error("UTF-8-encoded surrogate accepted")
	}
}

func TestCanonicalSortsByCodePoint(t *testing.T) {
	// UTF-16 order would put U+1F600 (D83D DE00) before U+FFFF.
	got, err := AppendCanonical(nil, map[string]any{"\uffff": 1, "😀": 2, "é": 3, "z": 4, "": 5})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"\":5,\"z\":4,\"é\":3,\"\uffff\":1,\"😀\":2}"
	if string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseJSONRefuses(t *testing.T) {
	bad := map[string]string{
		`{"a":"\ud800"}`:           "lone surrogate",
		`{"a":"\udc00\ud800"}`:     "lone surrogate",
		`{"a":"\ud800x"}`:          "lone surrogate",
		"{\"a\":\"\xff\"}":         "invalid UTF-8",
		"{\"a\":\"\xed\xa0\x80\"}": "invalid UTF-8",
		`{"a":1,"a":2}`:            "duplicate",
		`{"a":1,"\u0061":2}`:       "duplicate",
		`{"a":NaN}`:                "unexpected",
		`{"a":Infinity}`:           "unexpected",
		`{"a":01}`:                 "expected ',' or '}'",
		`{"a":1.}`:                 "decimal point",
		`{"a":"x` + "\n" + `"}`:    "control character",
		`{"a":1}x`:                 "after the value",
		`{"a":1`:                   "end of input",
		strings.Repeat("[", 600) + strings.Repeat("]", 600): "too deep",
	}
	for in, want := range bad {
		_, err := ParseJSON([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseJSON(%q) error = %v, want it to mention %q", in, err, want)
		}
	}
}

func TestParseJSONKeepsLiterals(t *testing.T) {
	v, err := ParseJSON([]byte(` {"n": 34831.950, "big": 123456789012345678901234567890, "s": "a\u00e9\ud83d\ude00\/"} `))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := v.Get("n")
	if lit, _ := n.Literal(); lit != "34831.950" || n.IsInteger() {
		t.Errorf("n = %q integer=%v", lit, n.IsInteger())
	}
	big, _ := v.Get("big")
	if lit, _ := big.Literal(); lit != "123456789012345678901234567890" || !big.IsInteger() {
		t.Errorf("big = %q", lit)
	}
	s, _ := v.Get("s")
	if txt, _ := s.Text(); txt != "aé😀/" {
		t.Errorf("s = %q", txt)
	}
}
