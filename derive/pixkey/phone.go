package pixkey

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/nyaruka/phonenumbers"
)

// DefaultRegion is the region a phone number without a country code is read
// in.
const DefaultRegion = "BR"

// NormalizePhone parses s as a phone number (region BR unless it starts with
// + and a country code) and returns it in E.164, e.g. "+5511987654321" for
// "(11) 98765-4321", "011 98765-4321" or "5511987654321". The number must be
// valid: "98765-4321" (no area code) is rejected, and a missing mobile 9 is
// never inserted.
func NormalizePhone(s string) (string, error) {
	n, err := parsePhone(s)
	if err != nil {
		return "", err
	}
	return phonenumbers.Format(n, phonenumbers.E164), nil
}

func parsePhone(s string) (*phonenumbers.PhoneNumber, error) {
	t := trimSpace(s)
	if t == "" {
		return nil, invalid(Phone, s, "empty")
	}
	if err := checkPhoneChars(s, t); err != nil {
		return nil, err
	}
	n, err := phonenumbers.Parse(t, DefaultRegion)
	if err != nil {
		return nil, invalid(Phone, s, "not a phone number: %v", err)
	}
	if n.GetExtension() != "" {
		return nil, invalid(Phone, s, "has an extension; a Pix phone key has none")
	}
	if !phonenumbers.IsValidNumber(n) {
		return nil, invalid(Phone, s, "%s", phoneInvalidReason(t, n))
	}
	return n, nil
}

// checkPhoneChars admits digits, spaces, parentheses, dots, slashes and
// dashes of any kind, and a leading +. It refuses what libphonenumber would
// quietly reinterpret: letters (it maps vanity letters to digits and reads
// "ext" as an extension) and a + anywhere but at the start.
func checkPhoneChars(orig, t string) error {
	for i, r := range t {
		switch {
		case isDigit(r), isPySpace(r), strings.ContainsRune("()./", r), unicode.Is(unicode.Pd, r):
		case r == '+' && i == 0:
		case r == '+':
			return invalid(Phone, orig, "+ is only allowed at the start")
		case unicode.IsLetter(r):
			return invalid(Phone, orig, "contains the letter %q; a phone key has only digits", r)
		default:
			return invalid(Phone, orig, "contains %q", r)
		}
	}
	return nil
}

func phoneInvalidReason(t string, n *phonenumbers.PhoneNumber) string {
	nsn := phonenumbers.GetNationalSignificantNumber(n)
	if n.GetCountryCode() == 55 && !strings.HasPrefix(t, "+") && len(nsn) <= 9 {
		return "no area code (DDD): put the two-digit area code before the number"
	}
	switch phonenumbers.IsPossibleNumberWithReason(n) {
	case phonenumbers.TOO_SHORT:
		return "too short for a number of country code +" + strconv.Itoa(int(n.GetCountryCode()))
	case phonenumbers.TOO_LONG:
		return "too long for a number of country code +" + strconv.Itoa(int(n.GetCountryCode()))
	case phonenumbers.INVALID_COUNTRY_CODE:
		return "unknown country code"
	}
	region := phonenumbers.GetRegionCodeForCountryCode(int(n.GetCountryCode()))
	return "not a valid number in " + region + " (check the area code and the digits; a missing mobile 9 is not added)"
}

// maskPhone writes an E.164 number the way people read it internationally,
// "+55 11 98765-4321".
func maskPhone(e164 string) string {
	n, err := phonenumbers.Parse(e164, DefaultRegion)
	if err != nil {
		return e164
	}
	return phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
}
