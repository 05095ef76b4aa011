package pixkey

import (
	"fmt"
	"strings"
)

// Kind is the type of an identifier. It is an input: a value's kind is never
// guessed from its shape.
type Kind string

// The identifier kinds.
const (
	CPF   Kind = "cpf"
	CNPJ  Kind = "cnpj"
	Phone Kind = "phone"
	Email Kind = "email"
	EVP   Kind = "evp"
)

// Kinds lists every kind, in a stable order.
var Kinds = []Kind{CPF, CNPJ, Phone, Email, EVP}

// kindAliases maps the names systems use for a Pix key type (DICT's
// uppercase names, Portuguese names) to a Kind.
var kindAliases = map[string]Kind{
	"cpf":       CPF,
	"cnpj":      CNPJ,
	"phone":     Phone,
	"telefone":  Phone,
	"celular":   Phone,
	"email":     Email,
	"e-mail":    Email,
	"evp":       EVP,
	"aleatoria": EVP,
	"aleatória": EVP,
	"random":    EVP,
}

// ParseKind maps a key type name — "cpf", "CNPJ", "PHONE", "telefone",
// "email", "EVP", "aleatoria", … (case and surrounding spaces ignored) — to a
// Kind.
func ParseKind(name string) (Kind, error) {
	k, ok := kindAliases[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return "", fmt.Errorf("unknown key type %q (want cpf, cnpj, phone, email or evp)", name)
	}
	return k, nil
}

// String returns the kind's human name.
func (k Kind) String() string {
	switch k {
	case CPF:
		return "CPF"
	case CNPJ:
		return "CNPJ"
	case Phone:
		return "phone"
	case Email:
		return "e-mail"
	case EVP:
		return "EVP"
	}
	return string(k)
}

// Error says why a value is not a valid identifier of its kind.
type Error struct {
	Kind   Kind
	Input  string
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("invalid %s %q: %s", e.Kind, e.Input, e.Reason)
}

func invalid(k Kind, input, format string, args ...any) *Error {
	return &Error{Kind: k, Input: input, Reason: fmt.Sprintf(format, args...)}
}

// Normalize returns the canonical form of s as an identifier of kind k, or an
// *Error saying why s is not one.
func Normalize(k Kind, s string) (string, error) {
	switch k {
	case CPF:
		return NormalizeCPF(s)
	case CNPJ:
		return NormalizeCNPJ(s)
	case Phone:
		return NormalizePhone(s)
	case Email:
		return NormalizeEmail(s)
	case EVP:
		return NormalizeEVP(s)
	}
	return "", fmt.Errorf("unknown key type %q", string(k))
}

// Validate reports whether s is a valid identifier of kind k; the error is
// an *Error with the reason.
func Validate(k Kind, s string) error {
	_, err := Normalize(k, s)
	return err
}

// Mask formats s the way people write it: "111.444.777-35",
// "12.ABC.345/01DE-35", "+55 11 98765-4321". E-mail and EVP keys have no mask
// and come back canonical.
func Mask(k Kind, s string) (string, error) {
	c, err := Normalize(k, s)
	if err != nil {
		return "", err
	}
	switch k {
	case CPF:
		return maskCPF(c), nil
	case CNPJ:
		return maskCNPJ(c), nil
	case Phone:
		return maskPhone(c), nil
	}
	return c, nil
}

// Unmask is Normalize: the canonical form carries no mask.
func Unmask(k Kind, s string) (string, error) { return Normalize(k, s) }
