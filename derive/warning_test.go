package derive

import (
	"bytes"
	"strings"
	"testing"
)

func TestNamedLikeCents(t *testing.T) {
	for name, want := range map[string]bool{
		"amount_cents": true, "amountCents": true, "AmountInCents": true, "valor_centavos": true,
		"cents": true, "CENTS": true, "price-cent": true, "total_centimos": true,
		"valor": false, "percent": false, "accent": false, "centro": false, "amount": false, "cent_er": true,
	} {
		if got := namedLikeCents(name); got != want {
			t.Errorf("namedLikeCents(%q) = %v, want %v (parts %q)", name, got, want, nameParts(name))
		}
	}
}

const centsSchema = `version: 1
actions:
  checkout.charge:
    fields:
      - name: order_id
        rule: text
      - name: amount_cents
        rule: cents
      - name: valor
        rule: cents
`

// TestAlreadyCentsWarning: an integer on a cents field named like cents
// derives the reference's key (100 times the value) and says so; a decimal
// there, or an integer on a cents field named otherwise, says nothing.
func TestAlreadyCentsWarning(t *testing.T) {
	s, err := ParseSchema([]byte(centsSchema))
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("warning-secret")
	tests := []struct {
		amount, valor string
		warn          bool
		normalized    string
	}{
		{`15000`, `1`, true, "1500000"},
		{`"15000"`, `1`, true, "1500000"},
		{`" -15000\t"`, `1`, true, "-1500000"},
		{`"+0"`, `1`, true, "0"},
		{`150.00`, `1`, false, "15000"},
		{`"150.5"`, `1`, false, "15050"},
		{`1.5e4`, `1`, false, "1500000"}, // an exponent: not written as cents
		{`"1"`, `15000`, true, "100"},    // valor is not named like cents
		{`"1.00"`, `15000`, false, "100"},
	}
	for _, tt := range tests {
		payload := `{"order_id":"A-1","amount_cents":` + tt.amount + `,"valor":` + tt.valor + `}`
		res, err := s.Derive(secret, Intent{Tenant: "acme", Action: "checkout.charge", Payload: []byte(payload)})
		if err != nil {
			t.Fatalf("%s: %v", payload, err)
		}
		if got := res.Fields[1].Normalized; got != tt.normalized {
			t.Errorf("%s: amount_cents normalized to %q, want %q", payload, got, tt.normalized)
		}
		if got := len(res.Warnings) > 0; got != tt.warn {
			t.Errorf("%s: warnings %v, want a warning: %v", payload, res.Warnings, tt.warn)
			continue
		}
		if tt.warn {
			w := res.Warnings[0]
			if len(res.Warnings) != 1 || w.Field != "amount_cents" ||
				!strings.Contains(w.Message, `the key holds "`+tt.normalized+`"`) || !strings.Contains(w.Message, "rule text") {
				t.Errorf("%s: warnings %v", payload, res.Warnings)
			}
		}
		key, err := s.Key(secret, Intent{Tenant: "acme", Action: "checkout.charge", Payload: []byte(payload)})
		if err != nil || key != res.Key {
			t.Errorf("%s: a warning changed the key: %s vs %s (%v)", payload, key, res.Key, err)
		}
	}
}

// TestBatchCountsWarnings: RunBatch counts the lines with a warning and
// keeps the first, with its line number, serially and in parallel.
func TestBatchCountsWarnings(t *testing.T) {
	s, err := ParseSchema([]byte(centsSchema))
	if err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	for i := range 600 {
		amount := `"12.50"`
		if i%3 == 1 {
			amount = `1250`
		}
		in.WriteString(`{"tenant":"t","action":"checkout.charge","payload":{"order_id":"A","amount_cents":` + amount + `,"valor":1}}` + "\n")
	}
	for _, workers := range []int{1, 3} {
		var out bytes.Buffer
		stats, err := s.RunBatch([]byte("k"), strings.NewReader(in.String()), &out, BatchOptions{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if stats.Lines != 600 || stats.Failed != 0 || stats.Warned != 200 ||
			!strings.HasPrefix(stats.FirstWarning, `line 2: field "amount_cents": 1250 is an integer`) {
			t.Errorf("workers %d: stats %+v", workers, stats)
		}
		if bytes.Contains(out.Bytes(), []byte("warning")) {
			t.Errorf("workers %d: a warning in the output lines", workers)
		}
	}
}
