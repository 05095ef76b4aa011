package derive

import (
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/internal/testenv"
)

// The shape classes of an amount, as the money rule (and Python's json,
// float and Decimal behind the reference) tells them apart. Every amount
// is lead + sign + integer + fraction + exponent + trail.
var (
	amountSigns = []string{"", "+", "-"}
	amountInts  = []string{
		"", "0", "00", "7", "010", "150",
		"1_000",                           // digit separator
		"1234567890123456789012345678",    // 28 significant digits: Python's decimal context holds them
		"12345678901234567890123456789",   // 29: the context would round
		"1" + strings.Repeat("0", 40),     // 41 digits, 1 significant
		"0000000000000000000000000000012", // leading zeros do not count
	}
	amountFracs = []string{
		"", ".", ".0", ".5", ".05", ".50", ".005", ".5_0",
		".1000000000000000055511151231257827", // more digits than a float carries
		"." + strings.Repeat("0", 30) + "1",
	}
	// Exponents up to the 4300-digit limit. Larger ones are amountOthers:
	// crossed with a fraction they land inside Decimal's range
	// (".005e1000000" is 5e999997), and the reference then spends 10 to 30
	// seconds converting a million-digit integer before it refuses.
	amountExps = []string{
		"", "e0", "E2", "e-2", "e+3", "e-3", "e308", "e400", "e-400",
		"e4297", "e4299", "e_1", "e", "E+",
	}
	amountLeads  = []string{"", " ", "\t", " \t", "\n", "\u00a0", "\u3000", "\x1c"}
	amountTrails = []string{"", " ", "\t", "\n", "\u00a0"}
	// Huge digit counts, around Python's 4300-digit int conversion limit
	// (cents adds two digits); crossed with fewer of the rest.
	amountHugeInts = []string{
		"1" + strings.Repeat("0", 4297), // 4300 digits in cents: converts
		"1" + strings.Repeat("0", 4298), // 4301: Python refuses
		strings.Repeat("9", 4301),
	}
	amountHugeFracs = []string{"", ".5", ".00"}
	amountHugeExps  = []string{"", "e2", "e-2", "e-4300"}
	// Whole values outside the grammar: non-finite, separators, other
	// digits, empty, malformed.
	amountOthers = []string{
		"NaN", "nan", "-NaN", "sNaN", "Infinity", "-Infinity", "inf", "+inf", "1,50", "1 000",
		"١٢", "１", "½", "0x10", "1e", "--1", "+-1", "1.2.3", "1.5e2.5", "e2", ".e2", "+.5", "-.5e1",
		"", " ", "\t", "true", "null",
		"1e1000000", "-1e1000001", "1e-1000001", "1e999999", // beyond Decimal's exponent range, or 10^6 digits
	}
)

// amountShapes crosses the classes: all of them in a full run, and without
// the whitespace variants otherwise.
func amountShapes(full bool) []string {
	leads, trails := amountLeads, amountTrails
	if !full {
		leads, trails = []string{"", " "}, []string{"", " "}
	}
	var core []string
	for _, sign := range amountSigns {
		for _, i := range amountInts {
			for _, f := range amountFracs {
				for _, e := range amountExps {
					core = append(core, sign+i+f+e)
				}
			}
		}
	}
	var out []string
	for _, lead := range leads {
		for _, trail := range trails {
			for _, c := range core {
				out = append(out, lead+c+trail)
			}
		}
	}
	for _, sign := range amountSigns {
		for _, i := range amountHugeInts {
			for _, f := range amountHugeFracs {
				for _, e := range amountHugeExps {
					out = append(out, sign+i+f+e, " "+sign+i+f+e+"\t")
				}
			}
		}
	}
	return append(out, amountOthers...)
}

// amountLines puts each shape in each field type: the cents field valor
// and the text field cliente_id, each as a JSON string and as the raw JSON
// literal (invalid JSON there is refused by both sides). A raw newline
// would end the line, so such literals are left to the string form.
func amountLines(shapes []string) []string {
	var out []string
	for _, s := range shapes {
		quoted, err := appendString(nil, s)
		if err != nil {
			panic(err)
		}
		forms := []string{string(quoted)}
		if !strings.ContainsAny(s, "\n\r") {
			forms = append(forms, s)
		}
		for _, v := range forms {
			out = append(out,
				`{"tenant":"t","action":"pix.cobranca","payload":{"cliente_id":"C-1","valor":`+v+`,"chave_pix_destino":"k@x.com","referencia_intencao":"r"}}`,
				`{"tenant":"t","action":"pix.cobranca","payload":{"cliente_id":`+v+`,"valor":"1.00","chave_pix_destino":"k@x.com","referencia_intencao":"r"}}`)
		}
	}
	return out
}

// TestExhaustiveAmounts compares every shape class of an amount, crossed
// with the field types, with the reference: the same key, a refusal by
// both, or a deliberate refusal; never a different key.
func TestExhaustiveAmounts(t *testing.T) {
	lines := amountLines(amountShapes(testenv.Full()))
	want := runReference(t, lines)
	got := goAnswers(lines)
	var p parity
	for i, l := range lines {
		p.compare(l, got[i], want[i])
	}
	p.report(t)
	if p.keys < p.lines/10 {
		t.Errorf("only %d of %d lines got a key: the shapes no longer make valid amounts", p.keys, p.lines)
	}
}
