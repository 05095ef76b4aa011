package normcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/idemcheck/idemcheck/derive"
)

// PayloadTemplate is a JSON object whose member Field is replaced by each
// spelling. Every other member keeps its exact source text and order.
type PayloadTemplate struct {
	members []payloadMember
	field   int // index of the replaced member
}

type payloadMember struct {
	name string
	raw  []byte
}

// NewPayloadTemplate parses data, a JSON object holding field.
func NewPayloadTemplate(data []byte, field string) (*PayloadTemplate, error) {
	v, err := derive.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	if v.Kind != derive.KindObject {
		return nil, errors.New("want a JSON object")
	}
	t := &PayloadTemplate{field: -1}
	for i, m := range v.Members() {
		t.members = append(t.members, payloadMember{name: m.Name(), raw: m.Value.Raw})
		if m.Name() == field {
			t.field = i
		}
	}
	if t.field < 0 {
		// Adding the field would let a command that ignores it pass.
		return nil, fmt.Errorf("no field %q to replace", field)
	}
	return t, nil
}

// With returns the payload with the field set to the JSON string s, and a
// newline.
func (t *PayloadTemplate) With(s string) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range t.members {
		if i > 0 {
			b.WriteString(", ")
		}
		writeJSONString(&b, m.name)
		b.WriteString(": ")
		if i == t.field {
			writeJSONString(&b, s)
		} else {
			b.Write(m.raw)
		}
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}
