package pixkey

import (
	"errors"
	"strings"
	"testing"
)

type vector struct {
	in, want string // want "" means invalid
	reason   string // substring of the reason, for invalid inputs
}

func runVectors(t *testing.T, k Kind, vectors []vector) {
	t.Helper()
	for _, v := range vectors {
		got, err := Normalize(k, v.in)
		if v.want == "" {
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("Normalize(%s, %q) = %q, %v; want an *Error", k, v.in, got, err)
				continue
			}
			if !strings.Contains(e.Reason, v.reason) {
				t.Errorf("Normalize(%s, %q) reason %q; want it to mention %q", k, v.in, e.Reason, v.reason)
			}
			continue
		}
		if err != nil || got != v.want {
			t.Errorf("Normalize(%s, %q) = %q, %v; want %q", k, v.in, got, err, v.want)
		}
	}
}

func TestCPF(t *testing.T) {
	runVectors(t, CPF, []vector{
		{in: "390.533.447-05", want: "39053344705"},
		{in: "248.438.034-80", want: "24843803480"},
		{in: "111.444.777-35", want: "11144477735"},
		{in: "11144477735", want: "11144477735"},
		{in: " 111 444 777 35\u00a0", want: "11144477735"},
		{in: "\t111.444.777/35\r\n", want: "11144477735"},
		{in: "231.002.999-00", reason: "check digits 00"},
		{in: "248.438.034-08", reason: "check digits 08"},
		{in: "111.111.111-11", reason: "all digits are equal"},
		{in: "000.000.000-00", reason: "all digits are equal"},
		{in: "1114447773", reason: "has 10 digits"},
		{in: "111444777350", reason: "has 12 digits"},
		{in: "111.444.777-3S", reason: "contains 'S'"},
		{in: "111.444.777-35+", reason: "contains '+'"},
		{in: "\u200b111.444.777\u201335", want: "11144477735"}, // zero-width space, en dash
		{in: "", reason: "no digits"},
		{in: " .-/ ", reason: "no digits"},
		{in: "١١١٤٤٤٧٧٧٣٥", reason: "contains"}, // Arabic-Indic digits are not CPF digits
	})
}

func TestCNPJ(t *testing.T) {
	runVectors(t, CNPJ, []vector{
		{in: "16.727.230/0001-97", want: "16727230000197"},
		{in: "16727230000197", want: "16727230000197"},
		{in: "16.727.230/0001-98", reason: "check digits 98"},
		{in: "12.ABC.345/01DE-35", want: "12ABC34501DE35"},
		{in: "12.ABC.345/01DE-34", reason: "check digits 34"},
		{in: "12.aBc.345/01dE-35", want: "12ABC34501DE35"},
		{in: "12abc34501de35", want: "12ABC34501DE35"},
		{in: "00.000.000/0000-00", reason: "all zeros"},
		{in: "12.ABC.345/01DE-3A", reason: "must be numeric"},
		{in: "12.ÁBC.345/01DE-35", reason: "contains 'Á'"},
		{in: "16.727.230/001-97", reason: "has 13 characters"},
	})
}

func TestPhone(t *testing.T) {
	runVectors(t, Phone, []vector{
		{in: "+55 (11) 98765-4321", want: "+5511987654321"},
		{in: "(11) 98765-4321", want: "+5511987654321"},
		{in: "011 98765-4321", want: "+5511987654321"},
		{in: "5511987654321", want: "+5511987654321"},
		{in: "+5511987654321", want: "+5511987654321"},
		{in: "11987654321", want: "+5511987654321"},
		{in: "\u00a0+55 11 98765 4321\t", want: "+5511987654321"},
		{in: "(21) 3333-4444", want: "+552133334444"},
		{in: "(11) 98765\u20134321", want: "+5511987654321"}, // en dash
		{in: "+1 650-253-0000", want: "+16502530000"},
		{in: "98765-4321", reason: "no area code"},
		{in: "(11) 8765-4321", reason: "not a valid number"}, // missing 9 is not inserted
		{in: "11 98765-432", reason: ""},
		{in: "(11) 98765-ABCD", reason: "letter"},
		{in: "11 98765-4321 ext. 12", reason: "letter"},
		{in: "11 98765+4321", reason: "+ is only allowed"},
		{in: "", reason: "empty"},
	})
}

func TestEmail(t *testing.T) {
	long := strings.Repeat("a", 70) + "@ex.com" // 77 characters
	runVectors(t, Email, []vector{
		{in: "Fulano@Example.COM", want: "fulano@example.com"},
		{in: " fulano@example.com\t", want: "fulano@example.com"},
		{in: "\u00a0FULANO@EXAMPLE.COM\u00a0", want: "fulano@example.com"},
		{in: "José@Ex.com", want: "josé@ex.com"},
		{in: "Jose\u0301@Ex.com", want: "josé@ex.com"}, // NFD
		{in: "a.b+tag@sub.example.com.br", want: "a.b+tag@sub.example.com.br"},
		{in: long, want: long},
		{in: "a" + long, reason: "78 characters"},
		{in: "fulano.example.com", reason: "no @"},
		{in: "@example.com", reason: "nothing before"},
		{in: "fulano@", reason: "nothing after"},
		{in: "ful ano@example.com", reason: "contains ' '"},
		{in: "fulano@@example.com", reason: "contains '@'"},
		{in: "fulano@example..com", reason: "empty label"},
		{in: "fulano@-example.com", reason: "starts or ends with -"},
		{in: "fulano@exa_mple.com", reason: "contains '_'"},
		{in: "ful%ano@example.com", reason: "contains '%'"},
		{in: "  ", reason: "empty"},
	})
}

func TestEVP(t *testing.T) {
	c := "123e4567-e89b-12d3-a456-426614174000"
	runVectors(t, EVP, []vector{
		{in: c, want: c},
		{in: strings.ToUpper(c), want: c},
		{in: "123E4567E89B12D3A456426614174000", want: c},
		{in: " " + c + "\u00a0", want: c},
		{in: "00000000-0000-0000-0000-000000000000", reason: "nil UUID"},
		{in: "123e4567-e89b-12d3-a456-42661417400", reason: "has 35 characters"},
		{in: "123e4567e-89b-12d3-a456-426614174000", reason: "8-4-4-4-12"},
		{in: "123g4567-e89b-12d3-a456-426614174000", reason: "contains 'g'"},
		{in: "{123e4567-e89b-12d3-a456-426614174000}", reason: "has 38 characters"},
	})
}

func TestKeyTypeIsNotGuessed(t *testing.T) {
	// 11912345684 is both a valid CPF and a valid São Paulo mobile: the kind
	// decides, and each kind gives its own canonical value.
	cpf, err := Normalize(CPF, "11912345684")
	if err != nil || cpf != "11912345684" {
		t.Fatalf("as CPF: %q, %v", cpf, err)
	}
	phone, err := Normalize(Phone, "11912345684")
	if err != nil || phone != "+5511912345684" {
		t.Fatalf("as phone: %q, %v", phone, err)
	}
}

func TestParseKind(t *testing.T) {
	for in, want := range map[string]Kind{
		"CPF": CPF, "cnpj": CNPJ, "PHONE": Phone, "telefone": Phone, "EMAIL": Email,
		"e-mail": Email, "EVP": EVP, " aleatoria ": EVP,
	} {
		if got, err := ParseKind(in); err != nil || got != want {
			t.Errorf("ParseKind(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseKind("pix"); err == nil {
		t.Error("ParseKind(pix) accepted an unknown type")
	}
}

func TestMask(t *testing.T) {
	for _, tc := range []struct {
		k        Kind
		in, want string
	}{
		{CPF, "11144477735", "111.444.777-35"},
		{CNPJ, "16727230000197", "16.727.230/0001-97"},
		{CNPJ, "12abc34501de35", "12.ABC.345/01DE-35"},
		{Phone, "11987654321", "+55 11 98765-4321"},
		{Email, " A@B.COM ", "a@b.com"},
	} {
		if got, err := Mask(tc.k, tc.in); err != nil || got != tc.want {
			t.Errorf("Mask(%s, %q) = %q, %v; want %q", tc.k, tc.in, got, err, tc.want)
		}
		if got, err := Unmask(tc.k, tc.want); err != nil {
			t.Errorf("Unmask(%s, %q): %v", tc.k, tc.want, err)
		} else if again, _ := Normalize(tc.k, tc.in); got != again {
			t.Errorf("Unmask(%s, %q) = %q; want %q", tc.k, tc.want, got, again)
		}
	}
}

func TestCompleteCheckDigits(t *testing.T) {
	if got, _ := CompleteCPF("111444777"); got != "11144477735" {
		t.Errorf("CompleteCPF = %q", got)
	}
	if got, _ := CompleteCNPJ("12abc34501de"); got != "12ABC34501DE35" {
		t.Errorf("CompleteCNPJ = %q", got)
	}
	if got, _ := CompleteCNPJ("167272300001"); got != "16727230000197" {
		t.Errorf("CompleteCNPJ = %q", got)
	}
	if _, err := CompleteCPF("11144477"); err == nil {
		t.Error("CompleteCPF accepted 8 digits")
	}
	if _, err := CompleteCNPJ("12abc34501d#"); err == nil {
		t.Error("CompleteCNPJ accepted #")
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := Normalize(CPF, "231.002.999-00")
	if err == nil || err.Error() != `invalid CPF "231.002.999-00": check digits 00 do not match (want 81)` {
		t.Errorf("error = %v", err)
	}
}
