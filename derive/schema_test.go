package derive

import (
	"bytes"
	"strings"
	"testing"
)

func TestDefaultSchemaRoundTrip(t *testing.T) {
	def := DefaultSchema()
	if err := def.Validate(); err != nil {
		t.Fatal(err)
	}
	back, err := ParseSchema(def.YAML())
	if err != nil {
		t.Fatalf("%v\n%s", err, def.YAML())
	}
	if !bytes.Equal(back.YAML(), def.YAML()) || back.Version != 1 || len(back.Actions) != 2 {
		t.Fatalf("round trip changed the schema:\n%s", back.YAML())
	}
}

func TestParseSchema(t *testing.T) {
	s, err := ParseSchema([]byte(`
version: 3
actions:
  pix.devolucao:
    fields:
      - name: chave
        rule: pix_key_typed
        type_field: tipo_chave
      - name: "valor: total"
        rule: cents
  b:
    fields:
      - {name: x, rule: text}
`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 3 || len(s.Actions) != 2 || s.Actions[0].Name != "pix.devolucao" || s.Actions[1].Name != "b" {
		t.Fatalf("unexpected schema %+v", s)
	}
	if f := s.Actions[0].Fields[0]; f.TypeField != "tipo_chave" || f.Rule != "pix_key_typed" {
		t.Fatalf("field = %+v", f)
	}
	again, err := ParseSchema(s.YAML())
	if err != nil || !bytes.Equal(again.YAML(), s.YAML()) {
		t.Fatalf("YAML round trip: %v\n%s", err, s.YAML())
	}
}

func TestParseSchemaErrors(t *testing.T) {
	tests := map[string]string{
		"version: 1\nactions:\n  a:\n    fields:\n      - name: x\n        rule: soundex\n":                   `unknown rule "soundex"`,
		"version: 1\nactions:\n  a:\n    fields:\n      - name: x\n        rule: text\n        colour: red\n": `unknown field key "colour"`,
		"version: 1\nactions:\n  a:\n    feilds: []\n":                                                        `unknown key "feilds"`,
		"version: 1\nactoins: {}\n":                                    `unknown key "actoins"`,
		"actions:\n  a:\n    fields:\n      - {name: x, rule: text}\n": "missing version",
		"version: 1\n": "missing actions",
		"version: 0\nactions:\n  a:\n    fields:\n      - {name: x, rule: text}\n": "positive",
		"version: one\nactions: {}\n":                  "version must be an integer",
		"version: 1\nactions:\n  a:\n    fields: []\n": `action "a" has no fields`,
		"version: 1\nactions:\n  a:\n    fields:\n      - {name: x, rule: text}\n      - {name: x, rule: trim}\n": `field "x" twice`,
		"version: 1\nactions:\n  a:\n    fields:\n      - {name: x}\n":                                            "missing rule",
		"version: 1\nactions:\n  a:\n    fields:\n      - {name: x, rule: text, type_field: x}\n":                 "type_field names the field itself",
		"version: 1\nactions: {}\n": "no actions",
		// yaml.v3 would decode these floats into an int as 2: refuse them.
		"version: 2.5\nactions:\n  a:\n    fields:\n      - {name: x, rule: text}\n":   `version must be an integer, got "2.5"`,
		"version: 2.0\nactions:\n  a:\n    fields:\n      - {name: x, rule: text}\n":   "version must be an integer",
		"version: \"2\"\nactions:\n  a:\n    fields:\n      - {name: x, rule: text}\n": "version must be an integer",
		// A repeated key would silently let the last one win.
		"version: 2\nversion: 3\nactions:\n  a:\n    fields:\n      - {name: x, rule: text}\n":           `key "version" appears twice`,
		"version: 2\nactions:\n  a:\n    fields:\n      - {name: x, rule: text}\n  a:\n    fields: []\n": `key "a" appears twice`,
		"version: 2\nactions:\n  a:\n    fields:\n      - {name: x, rule: text, name: y}\n":              `key "name" appears twice`,
		"version: 2\nactions:\n  a:\n    fields:\n      - {name: x, rule: text}\n    fields: []\n":       `key "fields" appears twice`,
		// A second document would be ignored.
		"version: 2\nactions:\n  a:\n    fields:\n      - {name: x, rule: text}\n---\nversion: 3\n": "second YAML document",
		// type_field on a rule that does not read it would be silently ignored.
		"version: 2\nactions:\n  a:\n    fields:\n      - {name: x, rule: cpf, type_field: t}\n": "type_field only applies to rule pix_key_typed, not cpf",
		"- a\n- b\n": "must be a mapping",
		"":           "empty",
	}
	for in, want := range tests {
		_, err := ParseSchema([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSchema(%q) = %v, want an error mentioning %q", in, err, want)
		}
	}
}

func TestDeriveExplains(t *testing.T) {
	res, err := DefaultSchema().Derive([]byte("k"), Intent{Tenant: "t", Action: "pix.cobranca",
		Payload: []byte(`{"message_id": "m", "cliente_id": 12, "valor": "1.50", "chave_pix_destino": " A-1 ", "referencia_intencao": "r", "updated_at": "u"}`)})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":"pix.cobranca","p":{"chave_pix_destino":"a1","cliente_id":"12","referencia_intencao":"r","valor":"150"},"t":"t","v":1}`
	if string(res.Canonical) != want {
		t.Fatalf("canonical %s", res.Canonical)
	}
	if strings.Join(res.Ignored, ",") != "message_id,updated_at" || len(res.Fields) != 4 ||
		res.Fields[1].Name != "valor" || string(res.Fields[1].Raw) != `"1.50"` || res.Fields[1].Normalized != "150" {
		t.Fatalf("explanation %+v", res)
	}
	key, err := DefaultSchema().Key([]byte("k"), Intent{Tenant: "t", Action: "pix.cobranca",
		Payload: []byte(`{"cliente_id": 12, "valor": "1.50", "chave_pix_destino": " A-1 ", "referencia_intencao": "r"}`)})
	if err != nil || key != res.Key {
		t.Fatalf("Key = %s, %v; Derive gave %s", key, err, res.Key)
	}
	if _, err := DefaultSchema().Derive(nil, Intent{}); err != ErrEmptySecret {
		t.Fatalf("empty secret: %v", err)
	}
	if _, err := DefaultSchema().Derive([]byte("k"), Intent{Tenant: "\xff", Action: "pix.cobranca", Payload: []byte(`{"cliente_id": 12, "valor": "1.50", "chave_pix_destino": " A-1 ", "referencia_intencao": "r"}`)}); err == nil {
		t.Fatal("invalid UTF-8 tenant accepted")
	}
}
