package derive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestBatchAgreesWithDerive runs every vector through RunBatch, with the
// payload both embedded as an object and given as a JSON string, and checks
// each output line against Schema.Derive with the same secret.
func TestBatchAgreesWithDerive(t *testing.T) {
	vectors := readVectors(t, "../testdata/derive-v1.jsonl")
	secret := []byte("batch-secret")
	s := DefaultSchema()
	var in bytes.Buffer
	for i, v := range vectors {
		// json.Marshal escapes <, > and & (tenants like "t<&>1"): on even
		// vectors keep them raw, so both the raw and the decoding path run.
		tenant, _ := json.Marshal(v.Tenant)
		if i%2 == 0 {
			tenant = marshalNoEscape(v.Tenant)
		}
		action, _ := json.Marshal(v.Action)
		payloadText, _ := json.Marshal(v.PayloadJSON)
		in.WriteString(`{"id":` + jsonInt(2*i) + `,"tenant":` + string(tenant) + `,"action":` + string(action) + `,"payload":` + v.PayloadJSON + "}\n")
		in.WriteString(`{"id":` + jsonInt(2*i+1) + `,"tenant":` + string(tenant) + `,"action":` + string(action) + `,"payload":` + string(payloadText) + "}\n")
	}
	for _, workers := range []int{1, 2, 4} {
		var out bytes.Buffer
		stats, err := s.RunBatch(secret, bytes.NewReader(in.Bytes()), &out, BatchOptions{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if stats.Lines != 2*len(vectors) {
			t.Fatalf("workers %d: %d lines answered, want %d", workers, stats.Lines, 2*len(vectors))
		}
		sc := bufio.NewScanner(&out)
		n, failed := 0, 0
		for sc.Scan() {
			var got struct {
				ID    int    `json:"id"`
				Key   string `json:"key"`
				Error string `json:"error"`
			}
			if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
				t.Fatalf("output line %d: %v: %s", n+1, err, sc.Bytes())
			}
			if got.ID != n {
				t.Fatalf("workers %d: output line %d has id %d: out of order", workers, n+1, got.ID)
			}
			v := vectors[n/2]
			want, werr := s.Derive(secret, Intent{Tenant: v.Tenant, Action: v.Action, Payload: []byte(v.PayloadJSON)})
			switch {
			case werr != nil && got.Error == "":
				t.Errorf("%s: batch gave key, Derive refused: %v", v.Name, werr)
			case werr == nil && got.Key != want.Key:
				t.Errorf("%s: batch %q (%s), Derive %s", v.Name, got.Key, got.Error, want.Key)
			case v.Error && got.Error == "":
				t.Errorf("%s: vector must be refused", v.Name)
			}
			if got.Error != "" {
				failed++
			}
			n++
		}
		if n != 2*len(vectors) || failed != stats.Failed {
			t.Fatalf("workers %d: %d lines, %d failed; stats %+v", workers, n, failed, stats)
		}
	}
}

func marshalNoEscape(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSpace(b.Bytes())
}

func jsonInt(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// TestBatchLongLines feeds lines far beyond bufio's buffer and a last line
// without a newline.
func TestBatchLongLines(t *testing.T) {
	big := strings.Repeat("é", 3<<20) // 6 MiB of two-byte runes
	line := `{"tenant":"t","action":"email.cobranca","payload":{"pad":"` + big + `","cliente_id":"1","referencia_intencao":"r","template":"x"}}`
	in := line + "\n" + line
	var out bytes.Buffer
	stats, err := DefaultSchema().RunBatch([]byte("k"), strings.NewReader(in), &out, BatchOptions{Workers: 2})
	if err != nil || stats.Lines != 2 || stats.Failed != 0 {
		t.Fatalf("stats %+v err %v out %.200s", stats, err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[0] != lines[1] || !strings.HasPrefix(lines[0], `{"key":"`) {
		t.Fatalf("output %q", out.String())
	}
}
