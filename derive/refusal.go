package derive

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Reason names a deliberate refusal: an input the reference function either
// refuses too, or would answer with a key that does not stand for what the
// input says (rounded money, a float's digits, a Python-version-dependent
// normalization). docs/derive.md lists them; the differential test
// counts refusals by reason.
type Reason string

// The deliberate refusals. Their names are stable: scripts may match them.
const (
	ReasonFractionOfCent  Reason = "fraction-of-cent" // 10.005: the reference refuses too
	ReasonAmountPrecision Reason = "amount-precision" // over 28 significant digits: Python's decimal context rounds
	ReasonFloatDigits     Reason = "float-digits"     // a JSON non-integer number that a float does not carry exactly
	ReasonAmountRange     Reason = "amount-range"     // beyond the float range, the exponent range or Python's 4300 digits
	ReasonAmountFormat    Reason = "amount-format"    // not a plain decimal: separators, non-ASCII digits, NaN, empty
	ReasonNotAnAmount     Reason = "not-an-amount"    // a boolean, null, array or object where an amount belongs
	ReasonNonIntegerID    Reason = "non-integer-text" // a float, boolean or null where text or an integer belongs
	ReasonIntegerDigits   Reason = "integer-digits"   // an integer of more than 4300 digits: Python refuses to convert it
	ReasonNewerUnicode    Reason = "newer-unicode"    // a character assigned after the reference Python's Unicode version
	ReasonUnnormalizedKey Reason = "unnormalized-key" // a pix_key the reference leaves non-NFC: normalizing it again changes it
	ReasonInvalidText     Reason = "invalid-text"     // invalid UTF-8 or a lone surrogate: Python cannot encode it
	ReasonDuplicateMember Reason = "duplicate-member" // a JSON object naming a member twice: Python silently keeps the last
	ReasonNestingDepth    Reason = "nesting-depth"    // JSON nested more than 512 levels deep
	ReasonUnknownMember   Reason = "unknown-member"   // a batch line with a key other than tenant, action, payload, id: a typo must not pass
)

// Refusal is an error that refuses an input on purpose, for Reason.
type Refusal struct {
	Reason Reason
	Err    error
}

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

func refusal(reason Reason, err error) error { return &Refusal{Reason: reason, Err: err} }

// RefusalReason returns the reason of a deliberate refusal in err's chain.
func RefusalReason(err error) (Reason, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Reason, true
	}
	return "", false
}

// maxQuoted is how many bytes of a value an error message quotes.
const maxQuoted = 40

// quoteValue quotes a value for an error message, shortened with its
// length when long: a megabyte amount must not become a megabyte of stderr.
func quoteValue[T ~string | ~[]byte](v T) string {
	if len(v) <= maxQuoted {
		return strconv.Quote(string(v))
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(string(v[:cut])), len(v))
}

// plainValue is quoteValue without quotes, for number literals.
func plainValue(v []byte) string {
	if len(v) <= maxQuoted {
		return string(v)
	}
	return fmt.Sprintf("%s… (%d bytes)", v[:maxQuoted], len(v))
}
