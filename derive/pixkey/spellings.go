package pixkey

import (
	"strings"

	"github.com/nyaruka/phonenumbers"
	"golang.org/x/text/unicode/norm"
)

// Spelling is one way of writing an identifier, with a short label saying
// which way ("masked", "bare", "NBSP around", …).
type Spelling struct {
	Label string `json:"label"`
	Value string `json:"spelling"`
}

// Spellings returns the spellings real systems produce for the identifier s
// of kind k: masked and bare, other separators, surrounding whitespace
// (space, tab, NBSP, newline), letter case, NFD for accented e-mails, the
// usual phone forms, and EVP with and without hyphens. s itself comes first
// ("as given"); no spelling appears twice. Every spelling normalizes, with
// Normalize(k, ·), to the same canonical value as s. An invalid s returns
// its *Error.
func Spellings(k Kind, s string) ([]Spelling, error) {
	c, err := Normalize(k, s)
	if err != nil {
		return nil, err
	}
	var forms []Spelling
	switch k {
	case CPF:
		forms = cpfForms(c)
	case CNPJ:
		forms = cnpjForms(c)
	case Phone:
		forms = phoneForms(c)
	case Email:
		forms = emailForms(s, c)
	case EVP:
		forms = evpForms(c)
	}
	list := &spellingList{seen: map[string]bool{}}
	list.add("as given", s)
	for _, f := range forms {
		list.add(f.Label, f.Value)
	}
	// Whitespace around the first two forms (canonical or masked): what a
	// form field, a CSV cell or a copy from a PDF leaves behind.
	for _, f := range forms[:min(2, len(forms))] {
		for _, w := range surroundings {
			list.add(f.Label+", "+w.label, w.before+f.Value+w.after)
		}
	}
	return list.items, nil
}

var surroundings = []struct{ label, before, after string }{
	{"spaces around", " ", " "},
	{"tab before", "\t", ""},
	{"NBSP around", "\u00a0", "\u00a0"},
	{"newline after", "", "\n"},
	{"tab and CRLF", "\t", "\r\n"},
}

type spellingList struct {
	items []Spelling
	seen  map[string]bool
}

func (l *spellingList) add(label, value string) {
	if l.seen[value] {
		return
	}
	l.seen[value] = true
	l.items = append(l.items, Spelling{Label: label, Value: value})
}

func cpfForms(c string) []Spelling {
	a, b, d, dv := c[0:3], c[3:6], c[6:9], c[9:11]
	return []Spelling{
		{"masked", maskCPF(c)},
		{"bare", c},
		{"spaces", a + " " + b + " " + d + " " + dv},
		{"dashes", a + "-" + b + "-" + d + "-" + dv},
		{"dots only", a + "." + b + "." + d + "." + dv},
		{"dash before check digits", a + b + d + "-" + dv},
		{"slash before check digits", a + "." + b + "." + d + "/" + dv},
		{"masked, space before check digits", a + "." + b + "." + d + " " + dv},
		{"masked, en dash", a + "." + b + "." + d + "\u2013" + dv},
	}
}

func cnpjForms(c string) []Spelling {
	a, b, d, branch, dv := c[0:2], c[2:5], c[5:8], c[8:12], c[12:14]
	forms := []Spelling{
		{"masked", maskCNPJ(c)},
		{"bare", c},
		{"spaces", a + " " + b + " " + d + " " + branch + " " + dv},
		{"dashes", a + "-" + b + "-" + d + "-" + branch + "-" + dv},
		{"dots only", a + "." + b + "." + d + "." + branch + "." + dv},
		{"slash and dash only", a + b + d + "/" + branch + "-" + dv},
		{"dash before check digits", a + b + d + branch + "-" + dv},
		{"masked, space after slash", a + "." + b + "." + d + "/ " + branch + "-" + dv},
	}
	if strings.IndexFunc(c[:12], func(r rune) bool { return r >= 'A' && r <= 'Z' }) >= 0 {
		lower := strings.ToLower(c)
		forms = append(forms,
			Spelling{"masked, lowercase letters", maskCNPJ(lower)},
			Spelling{"bare, lowercase letters", lower},
			Spelling{"masked, mixed case", maskCNPJ(mixedCase(c))},
		)
	}
	return forms
}

// mixedCase lowercases every other ASCII letter.
func mixedCase(s string) string {
	b := []byte(s)
	n := 0
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			if n%2 == 1 {
				b[i] = c - 'A' + 'a'
			}
			n++
		}
	}
	return string(b)
}

// phoneForms writes a number in E.164 every way Brazilian systems do: with
// and without +55, with the area code in parentheses, with the national
// trunk prefix 0, with spaces, dashes or dots. Numbers of other countries
// get their international forms only, since without the + they would be
// read as Brazilian.
func phoneForms(e164 string) []Spelling {
	n, err := phonenumbers.Parse(e164, DefaultRegion)
	if err != nil {
		return []Spelling{{"E.164", e164}}
	}
	intl := phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
	nsn := phonenumbers.GetNationalSignificantNumber(n)
	if n.GetCountryCode() != 55 || phonenumbers.GetLengthOfGeographicalAreaCode(n) != 2 {
		// Numbers of other countries, and Brazilian numbers without an area
		// code (0800, 4004): only the forms libphonenumber writes, and only
		// those that read back as the same number.
		var forms []Spelling
		for _, f := range []Spelling{
			{"E.164", e164},
			{"international", intl},
			{"international, dashes", strings.ReplaceAll(intl, " ", "-")},
			{"national", phonenumbers.Format(n, phonenumbers.NATIONAL)},
		} {
			if back, err := NormalizePhone(f.Value); err == nil && back == e164 {
				forms = append(forms, f)
			}
		}
		return forms
	}
	area, sub := nsn[:2], nsn[2:]
	head, tail := sub[:len(sub)-4], sub[len(sub)-4:]
	local := head + "-" + tail
	return []Spelling{
		{"E.164", e164},
		{"international, masked", "+55 (" + area + ") " + local},
		{"international, spaces", "+55 " + area + " " + head + " " + tail},
		{"international", intl},
		{"international, dashes", "+55-" + area + "-" + local},
		{"country code without +", "55" + nsn},
		{"country code without +, spaces", "55 " + area + " " + head + " " + tail},
		{"national, masked", "(" + area + ") " + local},
		{"national, no space", "(" + area + ")" + local},
		{"national, bare", nsn},
		{"national, spaces", area + " " + local},
		{"national, dots", area + "." + head + "." + tail},
		{"trunk prefix 0", "0" + area + " " + local},
		{"trunk prefix 0, bare", "0" + nsn},
		{"trunk prefix 0, parentheses", "(0" + area + ") " + local},
	}
}

// emailForms spells an address in the cases people type it, and — when it
// has accents — decomposed (NFD), as macOS file names and some keyboards
// produce. Case variants whose lowercase is not the address (e.g. dotless ı
// uppercases to I) are skipped: they are different addresses.
func emailForms(given, c string) []Spelling {
	forms := []Spelling{{"canonical", c}}
	at := strings.IndexByte(c, '@')
	local, domain := c[:at], c[at+1:]
	candidates := []Spelling{
		{"upper case", strings.ToUpper(c)},
		{"capitalized", capitalize(local) + "@" + capitalizeDomain(domain)},
		{"upper-case domain", local + "@" + strings.ToUpper(domain)},
	}
	for _, f := range candidates {
		if lowered, err := NormalizeEmail(f.Value); err == nil && lowered == c {
			forms = append(forms, f)
		}
	}
	if norm.NFD.String(c) != c {
		forms = append(forms, Spelling{"NFD (decomposed accents)", norm.NFD.String(c)})
		for _, f := range append([]Spelling{{"as given", given}}, candidates...) {
			d := norm.NFD.String(f.Value)
			if lowered, err := NormalizeEmail(d); err == nil && lowered == c {
				forms = append(forms, Spelling{f.Label + ", NFD", d})
			}
		}
	}
	return forms
}

func capitalize(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}

// capitalizeDomain writes "example.com" as "Example.COM".
func capitalizeDomain(d string) string {
	labels := strings.Split(d, ".")
	for i, l := range labels {
		if i == len(labels)-1 && i > 0 {
			labels[i] = strings.ToUpper(l)
		} else {
			labels[i] = capitalize(l)
		}
	}
	return strings.Join(labels, ".")
}

func evpForms(c string) []Spelling {
	bare := strings.ReplaceAll(c, "-", "")
	return []Spelling{
		{"canonical", c},
		{"upper case", strings.ToUpper(c)},
		{"no hyphens", bare},
		{"upper case, no hyphens", strings.ToUpper(bare)},
		{"mixed case", mixedCaseHex(c)},
	}
}

// mixedCaseHex uppercases every other hex letter.
func mixedCaseHex(s string) string {
	b := []byte(s)
	n := 0
	for i, c := range b {
		if c >= 'a' && c <= 'f' {
			if n%2 == 0 {
				b[i] = c - 'a' + 'A'
			}
			n++
		}
	}
	return string(b)
}
