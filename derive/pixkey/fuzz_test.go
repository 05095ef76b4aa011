package pixkey

import (
	"testing"
	"unicode/utf8"
)

const cnpjAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// FuzzCPFSpellings: for any valid CPF x, every generated spelling of x
// normalizes back to x.
func FuzzCPFSpellings(f *testing.F) {
	for _, s := range []string{"111444777", "390533447", "248438034", "000000001", "999999998"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed string) {
		base := make([]byte, 9)
		for i := range base {
			base[i] = '0'
			if i < len(seed) {
				base[i] = '0' + seed[i]%10
			}
		}
		x, err := CompleteCPF(string(base))
		if err != nil {
			t.Fatal(err)
		}
		if allSame(x) {
			if _, err := NormalizeCPF(x); err == nil {
				t.Fatalf("%s: all-equal CPF accepted", x)
			}
			return
		}
		checkSpellings(t, CPF, x, x)
	})
}

// FuzzCNPJSpellings: for any valid CNPJ x, numeric or alphanumeric, every
// generated spelling of x normalizes back to x.
func FuzzCNPJSpellings(f *testing.F) {
	for _, s := range []string{"167272300001", "12ABC34501DE", "000000000001", "ZZZZZZZZZZZZ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed string) {
		base := make([]byte, 12)
		for i := range base {
			base[i] = '0'
			if i < len(seed) {
				base[i] = cnpjAlphabet[int(seed[i])%len(cnpjAlphabet)]
			}
		}
		x, err := CompleteCNPJ(string(base))
		if err != nil {
			t.Fatal(err)
		}
		if allSame(x) {
			return
		}
		checkSpellings(t, CNPJ, x, x)
	})
}

// FuzzNormalizers: no normalizer panics on any input; what one accepts is
// valid UTF-8, is a fixed point (normalizing it again changes nothing) and
// has spellings that all normalize back to it.
func FuzzNormalizers(f *testing.F) {
	for _, s := range []string{
		"111.444.777-35", "12.aBc.345/01dE-35", "+55 (11) 98765-4321", "011 98765-4321",
		"98765-4321", "José@Ex.com", "jose\u0301@EX.com", "123E4567E89B12D3A456426614174000",
		"\u00a0\t", "\xff\xfe", "+", "@", "İ@x.com", "11 98765-4321 ext 9",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range Kinds {
			c, err := Normalize(k, s)
			if err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("Normalize(%s, %q) error %T, want *Error", k, s, err)
				}
				continue
			}
			if !utf8.ValidString(c) {
				t.Fatalf("Normalize(%s, %q) = %q: invalid UTF-8", k, s, c)
			}
			if again, err := Normalize(k, c); err != nil || again != c {
				t.Fatalf("Normalize(%s, %q) = %q, but again gives %q, %v", k, s, c, again, err)
			}
			checkSpellings(t, k, s, c)
		}
	})
}
