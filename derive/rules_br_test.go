package derive

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBrazilianRules(t *testing.T) {
	for _, tc := range []struct {
		rule, in, want string
		errHas         string
	}{
		{rule: "cpf", in: "111.444.777-35", want: "11144477735"},
		{rule: "cpf", in: " 111 444 777 35\u00a0", want: "11144477735"},
		{rule: "cpf", in: "231.002.999-00", errHas: "not a valid CPF: check digits 00"},
		{rule: "cpf", in: "111.111.111-11", errHas: "all digits are equal"},
		{rule: "cnpj", in: "12.aBc.345/01dE-35", want: "12ABC34501DE35"},
		{rule: "cnpj", in: "16.727.230/0001-98", errHas: "not a valid CNPJ"},
		{rule: "phone_e164", in: "+55 (11) 98765-4321", want: "+5511987654321"},
		{rule: "phone_e164", in: "(11) 98765-4321", want: "+5511987654321"},
		{rule: "phone_e164", in: "011 98765-4321", want: "+5511987654321"},
		{rule: "phone_e164", in: "5511987654321", want: "+5511987654321"},
		{rule: "phone_e164", in: "98765-4321", errHas: "no area code"},
		{rule: "email", in: "\tFulano@Example.COM ", want: "fulano@example.com"},
		{rule: "email", in: "fulano", errHas: "no @"},
		{rule: "evp", in: "123E4567E89B12D3A456426614174000", want: "123e4567-e89b-12d3-a456-426614174000"},
		{rule: "evp", in: "not-a-uuid", errHas: "not a valid EVP"},
	} {
		got, err := NormalizeString(tc.rule, tc.in)
		if tc.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%s(%q) = %q, %v; want an error mentioning %q", tc.rule, tc.in, got, err, tc.errHas)
			}
			if err != nil && strings.Contains(err.Error(), tc.in) {
				t.Errorf("%s(%q): the error %q repeats the value (personal data)", tc.rule, tc.in, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s(%q) = %q, %v; want %q", tc.rule, tc.in, got, err, tc.want)
		}
	}
}

func TestBrazilianRulesRefuseNonStrings(t *testing.T) {
	schema := typedSchema(t)
	_, err := schema.Derive([]byte("k"), Intent{Tenant: "t", Action: "pix.telefone",
		Payload: []byte(`{"cliente_id":"c","valor":1,"telefone":11987654321,"referencia_intencao":"r"}`)})
	if err == nil || !strings.Contains(err.Error(), `"telefone"`) {
		t.Fatalf("a number for a phone field: %v; want an error naming the field", err)
	}
}

func typedSchema(t *testing.T) *Schema {
	t.Helper()
	s, err := LoadSchemaFile("../testdata/normcheck/schema-v2.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Version == DefaultSchema().Version {
		t.Fatalf("the typed schema reuses rules version %d", s.Version)
	}
	return s
}

func pixPayload(key, keyType string) []byte {
	k, _ := json.Marshal(key)
	return []byte(`{"cliente_id":"c-1","valor":"150.00","chave_pix_destino":` + string(k) +
		`,"tipo_chave":"` + keyType + `","referencia_intencao":"NF-1"}`)
}

// TestPixKeyTypedOneKeyPerDestination: with pix_key_typed every spelling of
// a destination gives the same key, including the phone spellings on which
// the v1 pix_key rule gives different keys.
func TestPixKeyTypedOneKeyPerDestination(t *testing.T) {
	schema := typedSchema(t)
	secret := []byte("test-secret")
	groups := []struct {
		keyType   string
		spellings []string
	}{
		{"CPF", []string{"111.444.777-35", "11144477735", "111 444 777 35", " 111.444.777-35\t"}},
		{"cnpj", []string{"12.ABC.345/01DE-35", "12abc34501de35", "12.aBc.345/01dE-35"}},
		{"PHONE", []string{"+55 (11) 98765-4321", "+5511987654321", "5511987654321", "(11) 98765-4321", "11987654321", "011 98765-4321"}},
		{"telefone", []string{"+5511987654321", "(11) 98765-4321"}},
		{"EMAIL", []string{"Fulano@Example.COM", "fulano@example.com", " FULANO@EXAMPLE.COM"}},
		{"EVP", []string{"123e4567-e89b-12d3-a456-426614174000", "123E4567E89B12D3A456426614174000"}},
	}
	keys := map[string]string{}
	for _, g := range groups {
		var first string
		for i, sp := range g.spellings {
			res, err := schema.Derive(secret, Intent{Tenant: "t", Action: "pix.cobranca", Payload: pixPayload(sp, g.keyType)})
			if err != nil {
				t.Fatalf("%s %q: %v", g.keyType, sp, err)
			}
			if res.Version != 2 {
				t.Errorf("version %d, want 2", res.Version)
			}
			if i == 0 {
				first = res.Key
				continue
			}
			if res.Key != first {
				t.Errorf("%s: %q and %q give different keys", g.keyType, g.spellings[0], sp)
			}
		}
		keys[g.keyType+" "+g.spellings[0]] = first
	}
	if keys["PHONE +55 (11) 98765-4321"] != keys["telefone +5511987654321"] {
		t.Error("PHONE and telefone name the same key type but give different keys")
	}
	// The v1 rule, for contrast: the phone limit its authors name.
	a, _ := NormalizeString("pix_key", "+5511987654321")
	b, _ := NormalizeString("pix_key", "11987654321")
	if a == b {
		t.Errorf("pix_key v1 changed: %q == %q", a, b)
	}
}

func TestPixKeyTypedTypeIsAnInputNotAGuess(t *testing.T) {
	schema := typedSchema(t)
	secret := []byte("s")
	asCPF, err := schema.Derive(secret, Intent{Tenant: "t", Action: "pix.cobranca", Payload: pixPayload("11912345684", "CPF")})
	if err != nil {
		t.Fatal(err)
	}
	asPhone, err := schema.Derive(secret, Intent{Tenant: "t", Action: "pix.cobranca", Payload: pixPayload("11912345684", "PHONE")})
	if err != nil {
		t.Fatal(err)
	}
	if asCPF.Fields[2].Normalized != "11912345684" || asPhone.Fields[2].Normalized != "+5511912345684" {
		t.Errorf("normalized as CPF %q, as phone %q", asCPF.Fields[2].Normalized, asPhone.Fields[2].Normalized)
	}
}

func TestPixKeyTypedErrors(t *testing.T) {
	schema := typedSchema(t)
	for _, tc := range []struct {
		payload, errHas string
	}{
		{`{"cliente_id":"c","valor":1,"chave_pix_destino":"11144477735","referencia_intencao":"r"}`, `key type field "tipo_chave" is missing`},
		{`{"cliente_id":"c","valor":1,"chave_pix_destino":"11144477735","tipo_chave":1,"referencia_intencao":"r"}`, "must be a string"},
		{`{"cliente_id":"c","valor":1,"chave_pix_destino":"11144477735","tipo_chave":"pix","referencia_intencao":"r"}`, `unknown key type "pix"`},
		{`{"cliente_id":"c","valor":1,"chave_pix_destino":"11144477736","tipo_chave":"cpf","referencia_intencao":"r"}`, "not a valid CPF"},
		{`{"cliente_id":"c","valor":1,"chave_pix_destino":"98765-4321","tipo_chave":"PHONE","referencia_intencao":"r"}`, "no area code"},
	} {
		_, err := schema.Derive([]byte("s"), Intent{Tenant: "t", Action: "pix.cobranca", Payload: []byte(tc.payload)})
		if err == nil || !strings.Contains(err.Error(), tc.errHas) || !strings.Contains(err.Error(), "chave_pix_destino") {
			t.Errorf("%s: %v; want an error on chave_pix_destino mentioning %q", tc.payload, err, tc.errHas)
		}
	}
}

func TestSchemaRefusesRulesThatCannotWorkAtLoad(t *testing.T) {
	for _, tc := range []struct{ yaml, errHas string }{
		{"version: 2\nactions:\n  a:\n    fields:\n      - name: k\n        rule: pix_key_typed\n", "needs type_field"},
		{"version: 1\nactions:\n  a:\n    fields:\n      - name: k\n        rule: cpf\n", "needs its own rules version"},
	} {
		if _, err := ParseSchema([]byte(tc.yaml)); err == nil || !strings.Contains(err.Error(), tc.errHas) {
			t.Errorf("ParseSchema(%q) = %v; want an error mentioning %q", tc.yaml, err, tc.errHas)
		}
	}
}

func TestTypeFieldIsNotReportedAsIgnored(t *testing.T) {
	res, err := typedSchema(t).Derive([]byte("s"), Intent{Tenant: "t", Action: "pix.cobranca", Payload: []byte(
		`{"cliente_id":"c","valor":1,"chave_pix_destino":"11144477735","tipo_chave":"CPF","referencia_intencao":"r","updated_at":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ignored) != 1 || res.Ignored[0] != "updated_at" {
		t.Errorf("Ignored = %q, want only updated_at (tipo_chave is read by pix_key_typed)", res.Ignored)
	}
}

func TestNormalizePixKeyTyped(t *testing.T) {
	got, err := NormalizePixKeyTyped("aleatoria", " 123E4567-E89B-12D3-A456-426614174000 ")
	if err != nil || got != "123e4567-e89b-12d3-a456-426614174000" {
		t.Errorf("got %q, %v", got, err)
	}
}

// FuzzBrazilianRules: the identifier rules never panic, refuse rather than
// guess, and are idempotent through NormalizeString (a stored normalized
// key normalizes to itself).
func FuzzBrazilianRules(f *testing.F) {
	for _, s := range []string{"111.444.777-35", "12.aBc.345/01dE-35", "+55 (11) 98765-4321", "011 98765-4321",
		"98765-4321", "José@Ex.com", "123E4567E89B12D3A456426614174000", "\u00a0", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, rule := range []string{"cpf", "cnpj", "phone_e164", "email", "evp"} {
			once, err := NormalizeString(rule, s)
			if err != nil {
				continue
			}
			twice, err := NormalizeString(rule, once)
			if err != nil || twice != once {
				t.Fatalf("%s not idempotent: %+q -> %+q -> %+q (%v)", rule, s, once, twice, err)
			}
		}
	})
}
