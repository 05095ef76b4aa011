package derive

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

type vector struct {
	Name        string `json:"name"`
	Tenant      string `json:"tenant"`
	Action      string `json:"action"`
	PayloadJSON string `json:"payload_json"`
	Secret      string `json:"secret"`
	Key         string `json:"key"`
	Canonical   string `json:"canonical"`
	Error       bool   `json:"error"`
	Why         string `json:"why"`
}

func readVectors(t testing.TB, path string) []vector {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vector
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var v vector
			if err := json.Unmarshal(line, &v); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			out = append(out, v)
		}
		if err != nil {
			break
		}
	}
	return out
}

// TestVectors checks every reference vector: the exact key and canonical
// bytes, or a refusal for inputs marked as errors.
func TestVectors(t *testing.T) {
	vectors := readVectors(t, "../testdata/derive-v1.jsonl")
	if len(vectors) == 0 {
		t.Fatal("no vectors")
	}
	s := DefaultSchema()
	var keys, refusals int
	for _, v := range vectors {
		in := Intent{Tenant: v.Tenant, Action: v.Action, Payload: []byte(v.PayloadJSON)}
		res, err := s.Derive([]byte(v.Secret), in)
		fast, fastErr := s.Key([]byte(v.Secret), in)
		if v.Error {
			if err == nil || fastErr == nil {
				t.Errorf("%s (%s): want a refusal, got key (canonical %s)", v.Name, v.Why, res.Canonical)
				continue
			}
			refusals++
			continue
		}
		if err != nil || fastErr != nil {
			t.Errorf("%s: unexpected error: %v / %v", v.Name, err, fastErr)
			continue
		}
		if string(res.Canonical) != v.Canonical {
			t.Errorf("%s: canonical\n got %s\nwant %s", v.Name, res.Canonical, v.Canonical)
		}
		if res.Key != v.Key || fast != v.Key {
			t.Errorf("%s: key %s / %s, want %s", v.Name, res.Key, fast, v.Key)
		}
		keys++
	}
	t.Logf("%d vectors: %d keys matched, %d refused", len(vectors), keys, refusals)
}
