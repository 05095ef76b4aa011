package derive

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// hostileGen writes batch lines that are valid but hostile to a second
// implementation of the reference function: long runs of combining marks,
// Hangul jamo mixed with marks, Python-only whitespace, special casing,
// amounts of 25 to 40 digits as strings and as JSON numbers, characters
// newer than the reference Python's Unicode, escaped and raw spellings,
// payloads embedded and as JSON text. The same seed gives the same lines.
type hostileGen struct {
	rng *rand.Rand
}

func newHostileGen(seed uint64) *hostileGen {
	return &hostileGen{rng: rand.New(rand.NewPCG(seed, 0x1d3c))}
}

var (
	// Whitespace as Python's str.strip() sees it, including what Go's
	// strings.TrimSpace does not remove (U+001C-U+001F) and U+0085.
	hostileSpace = []string{" ", "\t", "\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x1f", "\u0085", "\u00a0",
		"\u1680", "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
		"\u200b", "\ufeff", "\u180e"} // the last three are not whitespace to Python
	// Special casing: full lowercase mappings, final sigma and the
	// case-ignorables around it, titlecase digraphs, ligatures.
	hostileCase = []string{"İ", "ı", "ß", "ẞ", "ﬁ", "ﬀ", "ǅ", "ǈ", "Ω", "K", "Å", "Σ", "ΑΣ", "ΟΔΟΣ", "Σ'", "Α\u00adΣ\u00ad",
		"ΑΣ\u0301", "Σ\u0345", "ᾈ", "ΐ", "ŉ", "ẖ", "և", "Ꭰ", "ꭰ", "𐐀", "Ⅰ", "Ⓐ", "½", "١", "１", "中", "😀", "ǰ", "J\u030c",
		"\u0130\u0307", "I\u0307", "A\u030a", "Å"}
	hostilePlain = []string{"a", "Z", "0", "9", "-", ".", "_", "/", "@", "+", "(", ")", "\"", "\\", "<", ">", "&", "'",
		"\x00", "\x01", "\x7f", "é", "ã", "ç", "João", "Ñ", "ü"}
)

// combiningMarks are marks of many classes, so runs need reordering.
var combiningMarks = []rune{0x0300, 0x0301, 0x0302, 0x0303, 0x0308, 0x030a, 0x030c, 0x0316, 0x0323, 0x0327, 0x0328,
	0x0334, 0x0338, 0x0345, 0x034f, 0x0359, 0x035c, 0x0360, 0x0361, 0x0591, 0x05b0, 0x05c4, 0x0610, 0x064b, 0x0651,
	0x0670, 0x093c, 0x094d, 0x0bcd, 0x0e38, 0x0e48, 0x0f71, 0x0f72, 0x0f80, 0x1dce, 0x1df9, 0x20d0, 0x20e3, 0x302a,
	0x302e, 0x3099, 0x309a, 0xfe20, 0x1d165, 0x1d16d, 0x1e94a}

// composingBases are starters that compose with marks or with each other.
var composingBases = []rune{'a', 'e', 'o', 'u', 'A', 'I', 'J', 'n', 'c', 'ω', 'α', 'ε', 'υ', 'ο', 'ᾳ', 'ü', 'á',
	0x0915, 0x09c7, 0x0b47, 0x0bc6, 0x0cc6, 0x0d46, 0x0dd9, 0x1025, 0x1b05, 0x304b, 0x30cf, 0x1100, 0xac00, 0x11a8,
	0x0061, 0x0b3e, 0x0dcf, 0x0d3e, 0x1161, 0x1175, 0xd7a3}

// newerRunes are assigned in Unicode 15.0 but not in 14.0.
var newerRunes = []rune{0x0cf3, 0x0ece, 0x10efd, 0x1123f, 0x11f00, 0x11f41, 0x1e030, 0x1e08f, 0x1e4d0, 0x31350, 0x1f6dc}

func (g *hostileGen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func (g *hostileGen) marks(n int) string {
	var b strings.Builder
	for range n {
		b.WriteRune(combiningMarks[g.rng.IntN(len(combiningMarks))])
	}
	return b.String()
}

// piece is one hostile fragment of text.
func (g *hostileGen) piece() string {
	switch g.rng.IntN(10) {
	case 0: // a long run of combining marks: past the Stream-Safe limit of 30
		return string(composingBases[g.rng.IntN(len(composingBases))]) + g.marks(20+g.rng.IntN(60))
	case 1: // Hangul jamo mixed with marks and separators
		var b strings.Builder
		for range 1 + g.rng.IntN(6) {
			switch g.rng.IntN(5) {
			case 0:
				b.WriteRune(0x1100 + rune(g.rng.IntN(21)))
			case 1:
				b.WriteRune(0x1160 + rune(g.rng.IntN(23)))
			case 2:
				b.WriteRune(0x11a7 + rune(g.rng.IntN(30)))
			case 3:
				b.WriteRune(0xac00 + rune(g.rng.IntN(11172)))
			default:
				b.WriteString(g.pick([]string{"-", " ", "\u0301", "\u0308", "\u302e", "\u3099"}))
			}
		}
		return b.String()
	case 2, 3:
		return g.pick(hostileSpace)
	case 4, 5:
		return g.pick(hostileCase)
	case 6:
		return string(composingBases[g.rng.IntN(len(composingBases))]) + g.marks(1+g.rng.IntN(4))
	case 7:
		if g.rng.IntN(8) == 0 {
			return string(newerRunes[g.rng.IntN(len(newerRunes))])
		}
		return string(g.anyRune())
	default:
		return g.pick(hostilePlain)
	}
}

// anyRune is a random scalar value (no surrogates).
func (g *hostileGen) anyRune() rune {
	for {
		var r rune
		if g.rng.IntN(3) == 0 {
			r = rune(g.rng.IntN(0x110000))
		} else {
			r = rune(0xa0 + g.rng.IntN(0x3000))
		}
		if utf8.ValidRune(r) {
			return r
		}
	}
}

func (g *hostileGen) text(maxPieces int) string {
	var b strings.Builder
	for range g.rng.IntN(maxPieces + 1) {
		b.WriteString(g.piece())
	}
	return b.String()
}

// pixKey is a hostile Pix key: mostly text, sometimes an e-mail address or
// a phone number in hostile clothing.
func (g *hostileGen) pixKey() string {
	switch g.rng.IntN(4) {
	case 0:
		return g.text(2) + "Jos\u00e9" + g.text(1) + "@" + g.pick([]string{"Ex.COM", "ΣΑΣ.gr", "müller.de"}) + g.text(2)
	case 1:
		return g.pick(hostileSpace) + "+55 (11) 9" + g.text(1) + "8765-4321" + g.pick(hostileSpace)
	default:
		return g.text(6)
	}
}

func (g *hostileGen) digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + g.rng.IntN(10))
	}
	if b[0] == '0' && g.rng.IntN(2) == 0 {
		b[0] = '1'
	}
	return string(b)
}

// longAmount is a decimal of 25 to 40 digits, sometimes with a fraction,
// an exponent, a sign, or padding zeros that carry no significance.
func (g *hostileGen) longAmount() string {
	d := g.digits(25 + g.rng.IntN(16))
	if g.rng.IntN(3) == 0 { // few significant digits, many zeros
		d = d[:1+g.rng.IntN(6)] + strings.Repeat("0", len(d))
	}
	if g.rng.IntN(2) == 0 {
		at := 1 + g.rng.IntN(len(d)-1)
		if g.rng.IntN(2) == 0 {
			at = len(d) - 2
		}
		d = d[:at] + "." + d[at:]
	}
	if g.rng.IntN(4) == 0 {
		d += g.pick([]string{"e2", "E-2", "e+5", "e-10", "e0"})
	}
	if g.rng.IntN(5) == 0 {
		d = g.pick([]string{"-", "+"}) + d
	}
	return d
}

// amount returns the raw JSON of a hostile amount.
func (g *hostileGen) amount() string {
	switch g.rng.IntN(8) {
	case 0, 1: // a long amount as a string, maybe padded
		pad := g.pick([]string{"", "", " ", "\t", "  "})
		s := pad + g.longAmount() + pad
		if strings.HasPrefix(s, "+") {
			s = s[1:]
		}
		return strconv.Quote(s)
	case 2: // a long amount as a JSON number
		return jsonNumber(g.longAmount())
	case 3: // a long integer as a JSON number
		return "9" + g.digits(24+g.rng.IntN(17))
	case 4:
		return strconv.Itoa(g.rng.IntN(10_000_000))
	case 5:
		return fmt.Sprintf("%d.%02d", g.rng.IntN(100_000), g.rng.IntN(100))
	case 6:
		return strconv.Quote(fmt.Sprintf("%d.%02d", g.rng.IntN(100_000), g.rng.IntN(100)))
	default:
		return g.pick([]string{`"10.005"`, `"1e-2"`, `12.3400`, `"1_000"`, `0.1`, `1e2`, `"-0"`, `"NaN"`, `true`, `null`,
			`"١٠"`, `1.5e300`, `0.1000000000000000055511151231257827`, `"1e4300"`, `123456789.123456789`})
	}
}

// member is one JSON object member, its value already encoded.
type member struct{ name, raw string }

func (g *hostileGen) str(s string) string {
	out, err := CanonicalString(s)
	if err != nil {
		panic(err)
	}
	if g.rng.IntN(2) == 0 {
		return asciiEscaped(out)
	}
	return out
}

// asciiEscaped rewrites a JSON string with every non-ASCII rune as \u
// escapes (surrogate pairs beyond U+FFFF), as json.dumps(ensure_ascii=True).
func asciiEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func object(ms []member) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(m.name))
		b.WriteByte(':')
		b.WriteString(m.raw)
	}
	b.WriteByte('}')
	return b.String()
}

func (g *hostileGen) clienteID() string {
	switch g.rng.IntN(4) {
	case 0:
		return g.digits(1 + g.rng.IntN(25))
	case 1:
		return "-" + g.digits(1+g.rng.IntN(5))
	default:
		return g.str(g.text(3))
	}
}

// line returns one batch input line, numbered id.
func (g *hostileGen) line(id int) string {
	var payload []member
	action := "pix.cobranca"
	if g.rng.IntN(4) == 0 {
		action = "email.cobranca"
		payload = []member{{"cliente_id", g.clienteID()}, {"referencia_intencao", g.str(g.text(5))},
			{"template", g.str(g.text(5))}}
	} else {
		payload = []member{{"cliente_id", g.clienteID()}, {"valor", g.amount()},
			{"chave_pix_destino", g.str(g.pixKey())}, {"referencia_intencao", g.str(g.text(5))}}
	}
	if g.rng.IntN(5) == 0 {
		payload = append(payload, member{"updated_at", g.str(g.text(3))})
	}
	if g.rng.IntN(200) == 0 { // Python keeps the last of duplicate names
		payload = append(payload, payload[g.rng.IntN(len(payload))])
	}
	g.rng.Shuffle(len(payload), func(i, j int) { payload[i], payload[j] = payload[j], payload[i] })
	p := object(payload)
	if g.rng.IntN(3) == 0 {
		p = g.str(p) // the payload as JSON text
	}
	return object([]member{{"id", strconv.Itoa(id)}, {"tenant", g.str(g.text(3))}, {"action", strconv.Quote(action)}, {"payload", p}})
}

// jsonNumber respells a decimal as a JSON number: no '+', no leading zeros,
// a digit before the point.
func jsonNumber(s string) string {
	s = strings.TrimPrefix(s, "+")
	s, neg := strings.CutPrefix(s, "-")
	s = strings.TrimLeft(s, "0")
	if s == "" || s[0] == '.' || s[0] == 'e' || s[0] == 'E' {
		s = "0" + s
	}
	if neg {
		s = "-" + s
	}
	return s
}
