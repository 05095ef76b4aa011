package derive

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestBatchLongLineAllocations bounds what one long batch line allocates, by
// shape: reading it (gathering blocks, then one copy of its exact size) is
// 2x its size, plus a fixed part (buffers) that is 0.3x of a 4 MiB line; a
// value a rule leaves as it is (or refuses) must cost no further copy. A
// payload given as text, or a rule that rewrites the value (lowercasing),
// adds one. A regrowing read or an extra copy of the value fails this.
func TestBatchLongLineAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what is allocated")
	}
	const n = 4 << 20
	long := strings.Repeat("a", n)
	pix := func(field, value string) string {
		p := map[string]string{"cliente_id": `"1"`, "valor": `"10.00"`, "chave_pix_destino": `"k"`, "referencia_intencao": `"r"`}
		p[field] = value
		return `{"tenant":"t","action":"pix.cobranca","payload":{"cliente_id":` + p["cliente_id"] + `,"valor":` + p["valor"] +
			`,"chave_pix_destino":` + p["chave_pix_destino"] + `,"referencia_intencao":` + p["referencia_intencao"] + `}}`
	}
	tests := []struct {
		name  string
		line  string
		ratio float64
	}{
		{"ascii pix key", pix("chave_pix_destino", `"`+long+`"`), 2.4},
		{"reference with spaces", pix("referencia_intencao", `" `+long+` "`), 2.4},
		{"ignored field", `{"tenant":"t","action":"pix.cobranca","payload":{"cliente_id":"1","valor":1,"chave_pix_destino":"k","referencia_intencao":"r","x":"` + long + `"}}`, 2.4},
		{"huge tenant", `{"tenant":"` + long + `","action":"pix.cobranca","payload":{"cliente_id":"1","valor":1,"chave_pix_destino":"k","referencia_intencao":"r"}}`, 2.4},
		{"huge amount", pix("valor", `"`+strings.Repeat("1", n)+`"`), 2.4},
		{"payload as text", `{"tenant":"t","action":"pix.cobranca","payload":` + strconv.Quote(pix("referencia_intencao", `"`+long+`"`)[strings.Index(pix("", ""), `{"cliente_id"`):len(pix("referencia_intencao", `"`+long+`"`))-1]) + `}`, 3.4},
		{"uppercase template", `{"tenant":"t","action":"email.cobranca","payload":{"cliente_id":"1","referencia_intencao":"r","template":"` + strings.ToUpper(long) + `"}}`, 3.4},
	}
	s := DefaultSchema()
	for _, tt := range tests {
		in := strings.NewReader(tt.line + "\n")
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var out bytes.Buffer
		_, err := s.RunBatch([]byte("k"), in, &out, BatchOptions{Workers: 1})
		runtime.ReadMemStats(&after)
		if err != nil || out.Len() > 1000 {
			t.Fatalf("%s: %v, output %q", tt.name, err, quoteValue(out.String()))
		}
		got := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(tt.line))
		if got > tt.ratio {
			t.Errorf("%s: allocated %.2fx the line's size, want at most %.1fx", tt.name, got, tt.ratio)
		}
		t.Logf("%s: %.2fx (%s)", tt.name, got, bytes.TrimSpace(out.Bytes()))
	}
}
