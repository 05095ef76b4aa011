package derive

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"io"
	"testing"
)

// benchLines builds n batch lines shaped like bench/gen_intents.py output.
func benchLines(n int) []byte {
	var b bytes.Buffer
	keys := []string{" José@Ex.com ", "+55 (11) 95318-3839", "123.456.789-09", "C96FA758-02B0-87F8-06FA-ADB10A248CFF"}
	for i := range n {
		if i%3 == 2 {
			fmt.Fprintf(&b, `{"id": %d, "tenant": "acme", "action": "email.cobranca", "payload": {"cliente_id": "01J%015X", "referencia_intencao": "NF-%06d", "template": " LEMBRETE"}}`+"\n", i, i*7919, i)
			continue
		}
		fmt.Fprintf(&b, `{"id": %d, "tenant": "Tenant-É", "action": "pix.cobranca", "payload": {"cliente_id": "01J%015X", "valor": %d.%02d, "chave_pix_destino": %q, "referencia_intencao": " NF-%06d ", "updated_at": "2026-11-03T10:00:00Z"}}`+"\n",
			i, i*7919, i%99999, i%100, keys[i%len(keys)], i)
	}
	return b.Bytes()
}

// BenchmarkRunBatch measures the batch path, one line per op.
func BenchmarkRunBatch(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			const n = 10000
			data := benchLines(n)
			s := DefaultSchema()
			b.SetBytes(int64(len(data) / n))
			b.ResetTimer()
			for done := 0; done < b.N; done += n {
				if _, err := s.RunBatch([]byte("s3cret"), bytes.NewReader(data), io.Discard, BatchOptions{Workers: workers}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDeriverKey measures one key through the library API.
func BenchmarkDeriverKey(b *testing.B) {
	d, _ := DefaultSchema().NewDeriver([]byte("s3cret"))
	payload := []byte(`{"cliente_id": "01J3A5AEC798306D03B", "valor": 13453.28, "chave_pix_destino": " José@Ex.com ", "referencia_intencao": " NF-651673 ", "updated_at": "2026-11-03T10:00:00Z"}`)
	var dst []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if dst, err = d.AppendKey(dst[:0], "Tenant-É", "pix.cobranca", payload); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHMACOnly is the physical floor: HMAC-SHA256 of a canonical JSON
// of the same size as BenchmarkDeriverKey's, with the key schedule reused.
func BenchmarkHMACOnly(b *testing.B) {
	canonical := []byte(`{"a":"pix.cobranca","p":{"chave_pix_destino":"josé@ex.com","cliente_id":"01J3A5AEC798306D03B","referencia_intencao":"NF-651673","valor":"1345328"},"t":"Tenant-É","v":1}`)
	mac := hmac.New(sha256.New, []byte("s3cret"))
	var sum []byte
	b.SetBytes(int64(len(canonical)))
	for b.Loop() {
		mac.Reset()
		mac.Write(canonical)
		sum = mac.Sum(sum[:0])
	}
}
