package pixkey

import (
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// checkSpellings asserts that every spelling of s normalizes to canon and
// that no spelling repeats.
func checkSpellings(t *testing.T, k Kind, s, canon string) []Spelling {
	t.Helper()
	list, err := Spellings(k, s)
	if err != nil {
		t.Fatalf("Spellings(%s, %q): %v", k, s, err)
	}
	seen := map[string]bool{}
	for _, sp := range list {
		if seen[sp.Value] {
			t.Errorf("Spellings(%s, %q): %q appears twice", k, s, sp.Value)
		}
		seen[sp.Value] = true
		got, err := Normalize(k, sp.Value)
		if err != nil || got != canon {
			t.Errorf("%s spelling %s %q -> %q, %v; want %q", k, sp.Label, sp.Value, got, err, canon)
		}
	}
	return list
}

func hasSpelling(list []Spelling, v string) bool {
	for _, sp := range list {
		if sp.Value == v {
			return true
		}
	}
	return false
}

func TestSpellingsIncludeTheFormsRealSystemsSend(t *testing.T) {
	for _, tc := range []struct {
		k     Kind
		in    string
		canon string
		want  []string
	}{
		{CPF, "11144477735", "11144477735", []string{"111.444.777-35", "11144477735", "111 444 777 35", " 111.444.777-35 ", "\t11144477735", "\u00a0111.444.777-35\u00a0"}},
		{CNPJ, "16.727.230/0001-97", "16727230000197", []string{"16.727.230/0001-97", "16727230000197", "16 727 230 0001 97"}},
		{CNPJ, "12ABC34501DE35", "12ABC34501DE35", []string{"12.ABC.345/01DE-35", "12.abc.345/01de-35", "12abc34501de35"}},
		{Phone, "(11) 98765-4321", "+5511987654321", []string{"+55 (11) 98765-4321", "+5511987654321", "5511987654321", "(11) 98765-4321", "11987654321", "011 98765-4321"}},
		{Email, "Fulano@Example.COM", "fulano@example.com", []string{"Fulano@Example.COM", "fulano@example.com", "FULANO@EXAMPLE.COM", " fulano@example.com "}},
		{Email, "josé@ex.com", "josé@ex.com", []string{"jose\u0301@ex.com"}},
		{EVP, "123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000", []string{"123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000", "123E4567E89B12D3A456426614174000"}},
	} {
		list := checkSpellings(t, tc.k, tc.in, tc.canon)
		if list[0].Value != tc.in {
			t.Errorf("Spellings(%s, %q) starts with %q; want the value as given", tc.k, tc.in, list[0].Value)
		}
		for _, w := range tc.want {
			if !hasSpelling(list, w) {
				t.Errorf("Spellings(%s, %q) lacks %q", tc.k, tc.in, w)
			}
		}
	}
}

func TestSpellingsOfInvalidValue(t *testing.T) {
	if _, err := Spellings(CPF, "111.111.111-11"); err == nil {
		t.Error("Spellings accepted an invalid CPF")
	}
}

// TestPhoneSpellingsEveryAreaCode: every spelling of a mobile and a landline
// in every Brazilian area code comes back to the same E.164 number — the
// trunk prefix 0 and the bare 55 must not be mistaken for carrier or area
// codes.
func TestPhoneSpellingsEveryAreaCode(t *testing.T) {
	areas := 0
	for ddd := 11; ddd <= 99; ddd++ {
		for _, sub := range []string{"987654321", "33334444"} {
			e164 := "+55" + itoa2(ddd) + sub
			n, err := phonenumbers.Parse(e164, "BR")
			if err != nil || !phonenumbers.IsValidNumber(n) {
				continue // not an area code in use
			}
			if sub == "987654321" {
				areas++
			}
			checkSpellings(t, Phone, e164, e164)
		}
	}
	if areas < 60 {
		t.Fatalf("only %d area codes had a valid mobile; the test data is wrong", areas)
	}
}

func itoa2(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }

func TestEmailCaseVariantsThatAreOtherAddressesAreSkipped(t *testing.T) {
	// "ı" (dotless i) uppercases to "I", which lowercases to "i": a
	// different address, so no case variant may be offered.
	list := checkSpellings(t, Email, "aı@ex.com", "aı@ex.com")
	for _, sp := range list {
		if strings.ContainsRune(sp.Value, 'I') {
			t.Errorf("offered %q, which is another address", sp.Value)
		}
	}
}

func TestOtherIsValidAndDifferent(t *testing.T) {
	for k, v := range map[Kind]string{
		CPF: "111.444.777-35", CNPJ: "12.ABC.345/01DE-35", Phone: "(11) 98765-4321",
		Email: strings.Repeat("a", 70) + "@ex.com", EVP: "123e4567-e89b-12d3-a456-42661417400f",
	} {
		c, _ := Normalize(k, v)
		o, err := Other(k, v)
		if err != nil || o == c {
			t.Errorf("Other(%s, %q) = %q, %v", k, v, o, err)
			continue
		}
		if n, err := Normalize(k, o); err != nil || n != o {
			t.Errorf("Other(%s, %q) = %q is not canonical and valid: %q, %v", k, v, o, n, err)
		}
	}
}
