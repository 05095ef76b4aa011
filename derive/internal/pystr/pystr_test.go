package pystr

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

type pyCase struct {
	S     string `json:"s"`
	Strip string `json:"strip"`
	Lower string `json:"lower"`
	Alnum []bool `json:"alnum"`
	Space []bool `json:"space"`
}

// TestAgainstPython checks cases whose expected answers were produced by
// CPython (gen_cases.py), including final sigma and multi-rune lowercase.
func TestAgainstPython(t *testing.T) {
	f, err := os.Open("testdata/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var c pyCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		if got := Strip(c.S); got != c.Strip {
			t.Errorf("Strip(%+q) = %+q, Python gives %+q", c.S, got, c.Strip)
		}
		if got := Lower(c.S); got != c.Lower {
			t.Errorf("Lower(%+q) = %+q, Python gives %+q", c.S, got, c.Lower)
		}
		if got := string(AppendLower([]byte("x"), []byte(c.S))); got != "x"+c.Lower {
			t.Errorf("AppendLower(%+q) = %+q, Python gives %+q", c.S, got, c.Lower)
		}
		if got := string(Strip([]byte(c.S))); got != c.Strip {
			t.Errorf("Strip([]byte(%+q)) = %+q, Python gives %+q", c.S, got, c.Strip)
		}
		i := 0
		for _, r := range c.S {
			if got := IsAlnum(r); got != c.Alnum[i] {
				t.Errorf("IsAlnum(%U) = %v, Python gives %v", r, got, c.Alnum[i])
			}
			if got := IsSpace(r); got != c.Space[i] {
				t.Errorf("IsSpace(%U) = %v, Python gives %v", r, got, c.Space[i])
			}
			i++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d cases read", n)
	}
}

func TestKnownPythonBehaviour(t *testing.T) {
	tests := []struct{ fn, in, want string }{
		{"lower", "İ", "i\u0307"},
		{"lower", "ΟΔΟΣ", "οδος"[:len("οδο")] + "ς"},
		{"lower", "Σ", "σ"},
		{"lower", "ΑΣΑ", "ασα"},
		{"lower", "ẞ", "ß"},
		{"lower", "JOSÉ@EX.COM", "josé@ex.com"},
		{"strip", "\x1c\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000x\u3000", "x"},
		{"strip", "\u200bx\ufeff", "\u200bx\ufeff"},
	}
	for _, tt := range tests {
		var got string
		if tt.fn == "lower" {
			got = Lower(tt.in)
		} else {
			got = Strip(tt.in)
		}
		if got != tt.want {
			t.Errorf("%s(%+q) = %+q, want %+q", tt.fn, tt.in, got, tt.want)
		}
	}
	if !IsAlnum('½') || !IsAlnum('１') || !IsAlnum('中') || IsAlnum('_') || IsAlnum('\u200b') {
		t.Error("IsAlnum disagrees with Python on ½ １ 中 _ U+200B")
	}
}
