package derive

import (
	"errors"
	"fmt"

	"github.com/idemcheck/idemcheck/derive/pixkey"
)

// Rules for Brazilian identifiers (package pixkey). They validate as well as
// normalize: a CPF with wrong check digits or a phone without area code is
// refused, never hashed. None of them is in the v1 default schema; a schema
// that uses them must carry its own rules version, since switching a field
// from pix_key to any of these changes every key.
func init() {
	registerRule("cpf", identifierRule(pixkey.CPF))
	registerRule("cnpj", identifierRule(pixkey.CNPJ))
	registerRule("phone_e164", identifierRule(pixkey.Phone))
	registerRule("email", identifierRule(pixkey.Email))
	registerRule("evp", identifierRule(pixkey.EVP))
	registerRule(RulePixKeyTyped, rulePixKeyTyped)
}

// RulePixKeyTyped is the rule that normalizes a Pix key by the key type held
// in a sibling field (Field.TypeField, e.g. "tipo_chave").
const RulePixKeyTyped = "pix_key_typed"

func identifierRule(k pixkey.Kind) RuleFunc {
	return func(in RuleInput) (string, error) {
		s, err := in.String()
		if err != nil {
			return "", err
		}
		return normalizeIdentifier(k, s)
	}
}

// normalizeIdentifier returns the canonical identifier or the reason it is
// invalid. The value itself is left out of the error: it is personal data
// and the error names the field already.
func normalizeIdentifier(k pixkey.Kind, s string) (string, error) {
	c, err := pixkey.Normalize(k, s)
	var invalid *pixkey.Error
	if errors.As(err, &invalid) {
		return "", fmt.Errorf("not a valid %s: %s", k, invalid.Reason)
	}
	return c, err
}

// rulePixKeyTyped reads the key type from the sibling field named by
// Field.TypeField (DICT's CPF, CNPJ, PHONE, EMAIL, EVP or the Portuguese
// telefone, aleatoria, …) and applies that type's rule. The type is never
// guessed from the key: "11912345684" is both a valid CPF and a São Paulo
// mobile.
func rulePixKeyTyped(in RuleInput) (string, error) {
	if in.Field.TypeField == "" {
		return "", errors.New("rule pix_key_typed needs type_field in the schema (the payload field holding the key type)")
	}
	tv, ok := in.Sibling(in.Field.TypeField)
	if !ok {
		return "", fmt.Errorf("the key type field %q is missing from the payload", in.Field.TypeField)
	}
	typeName, ok := tv.Text()
	if !ok {
		return "", fmt.Errorf("the key type field %q must be a string, got %s", in.Field.TypeField, describeValue(tv))
	}
	s, err := in.String()
	if err != nil {
		return "", err
	}
	return NormalizePixKeyTyped(typeName, s)
}

// NormalizePixKeyTyped normalizes the Pix key s of the named key type
// exactly as the pix_key_typed rule does.
func NormalizePixKeyTyped(keyType, s string) (string, error) {
	k, err := pixkey.ParseKind(keyType)
	if err != nil {
		return "", err
	}
	return normalizeIdentifier(k, s)
}
