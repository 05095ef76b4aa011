package derive

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// appendCents turns an amount in reais into integer cents with exact
// decimal arithmetic. It accepts a JSON number or a string holding a plain
// decimal (optional sign, ASCII digits, optional fraction, optional
// exponent, surrounding spaces or tabs) and refuses anything a money format
// would not produce or that would lose money: sub-cent precision, NaN,
// Infinity, digit separators, non-ASCII digits, booleans and null.
func appendCents(dst []byte, in *RuleInput, scratch *[]byte) ([]byte, error) {
	switch in.Value.Kind {
	case KindNumber:
		lit := in.Value.Raw
		if !in.Value.integer {
			if err := checkFloatRoundTrip(lit); err != nil {
				return dst, err
			}
		}
		return appendDecimalCents(dst, lit, lit)
	case KindString:
		s, _ := stringArg(in, scratch)
		t := bytes.Trim(s, " \t")
		if len(t) == 0 {
			return dst, refusal(ReasonAmountFormat, errors.New("empty amount"))
		}
		if isNonFinite(t) {
			return dst, refusal(ReasonAmountFormat, fmt.Errorf("amount %s is not a finite number", quoteValue(s)))
		}
		return appendDecimalCents(dst, t, s)
	}
	return dst, refusal(ReasonNotAnAmount, fmt.Errorf("want an amount (number or decimal string), got %s", describeValue(in.Value)))
}

func isNonFinite(t []byte) bool {
	t = bytes.TrimLeft(t, "+-")
	for _, w := range []string{"nan", "snan", "inf", "infinity"} {
		if len(t) == len(w) && bytes.EqualFold(t, []byte(w)) {
			return true
		}
	}
	return false
}

// checkFloatRoundTrip refuses JSON non-integer literals that a float64 does
// not carry exactly to the reference, which reads JSON numbers as floats:
// ones that overflow to infinity, and ones with more digits than survive
// the float's repr. Those would give the reference a different amount than
// the literal says.
func checkFloatRoundTrip(lit []byte) error {
	// Up to 15 significant digits, far from the float range's ends, always
	// round-trip (DBL_DIG is 15): skip the float conversion.
	if d, err := scanDecimal(lit); err == nil && d.sigDigits() <= 15 &&
		len(d.intDigits)+len(d.fracDigits) <= 30 && d.exp > -250 && d.exp < 250 {
		return nil
	}
	// A float's shortest repr has at most 17 significant digits.
	if d, err := scanDecimal(lit); err == nil && d.sigDigits() > 17 {
		return refusal(ReasonFloatDigits, fmt.Errorf("amount %s has more digits than a JSON float carries exactly; send it as a string", plainValue(lit)))
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsInf(f, 0) {
		return refusal(ReasonAmountRange, fmt.Errorf("amount %s is out of range", plainValue(lit)))
	}
	a, errA := scanDecimal(lit)
	b, errB := scanDecimal([]byte(strconv.FormatFloat(f, 'g', -1, 64)))
	if errA != nil || errB != nil || !a.equal(b) {
		return refusal(ReasonFloatDigits, fmt.Errorf("amount %s has more digits than a JSON float carries exactly; send it as a string", plainValue(lit)))
	}
	return nil
}

// decimal is a scanned decimal literal: sign * intDigits.fracDigits * 10^exp.
// The digit slices point into the literal.
type decimal struct {
	neg        bool
	intDigits  []byte
	fracDigits []byte
	exp        int
}

// sigDigits counts digits from the first to the last non-zero one.
func (d decimal) sigDigits() int {
	all := len(d.intDigits) + len(d.fracDigits)
	lead := 0
	for lead < all && d.digit(lead) == '0' {
		lead++
	}
	trail := 0
	for trail < all-lead && d.digit(all-1-trail) == '0' {
		trail++
	}
	return all - lead - trail
}

func (d decimal) digit(i int) byte {
	if i < len(d.intDigits) {
		return d.intDigits[i]
	}
	return d.fracDigits[i-len(d.intDigits)]
}

// normalized returns the significant digits and the exponent of their last
// digit; zero has no digits.
func (d decimal) normalized() ([]byte, int) {
	all := append(append([]byte{}, d.intDigits...), d.fracDigits...)
	exp := d.exp - len(d.fracDigits)
	all = bytes.TrimLeft(all, "0")
	for len(all) > 0 && all[len(all)-1] == '0' {
		all = all[:len(all)-1]
		exp++
	}
	return all, exp
}

func (d decimal) equal(o decimal) bool {
	a, ea := d.normalized()
	b, eb := o.normalized()
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return d.neg == o.neg && bytes.Equal(a, b) && ea == eb
}

// maxExponent bounds exponents; anything near it is far beyond the digits
// Python will print anyway.
const maxExponent = 1_000_000

var (
	errNotDecimal  = errors.New("not a plain decimal")
	errExponentBig = errors.New("exponent out of range")
)

// scanDecimal reads [+-]digits[.digits][(e|E)[+-]digits] with ASCII digits
// only ("5." and ".5" included, as Python's Decimal reads them).
func scanDecimal(s []byte) (decimal, error) {
	var d decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	d.intDigits = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		d.fracDigits = s[start:i]
	}
	if len(d.intDigits)+len(d.fracDigits) == 0 {
		return d, errNotDecimal
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start = i
		exp := 0
		for i < len(s) && isDigit(s[i]) {
			if exp < maxExponent {
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == start {
			return d, errNotDecimal
		}
		if exp >= maxExponent {
			return d, errExponentBig
		}
		if expNeg {
			exp = -exp
		}
		d.exp = exp
	}
	if i != len(s) {
		return d, errNotDecimal
	}
	return d, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// pythonDecimalPrecision is the precision of Python's default decimal
// context, in which the reference multiplies the amount by 100: a product
// with more significant digits is rounded.
const pythonDecimalPrecision = 28

// appendDecimalCents appends 100 times the decimal text t, exactly, as an
// integer. orig is the input as given, for error messages.
func appendDecimalCents(dst, t, orig []byte) ([]byte, error) {
	d, err := scanDecimal(t)
	if err != nil {
		if errors.Is(err, errNotDecimal) {
			return dst, refusal(ReasonAmountFormat, fmt.Errorf("amount %s is not a plain decimal (digits 0-9, optional sign, '.' fraction, exponent)", quoteValue(orig)))
		}
		return dst, refusal(ReasonAmountRange, fmt.Errorf("amount %s: %v", quoteValue(orig), err))
	}
	// Checked before copying the digits: the amount may be huge.
	if sig := d.sigDigits(); sig > pythonDecimalPrecision {
		return dst, precisionError(orig, sig)
	}
	start := len(dst)
	if d.neg {
		dst = append(dst, '-')
	}
	digitsAt := len(dst)
	dst = append(dst, d.intDigits...)
	dst = append(dst, d.fracDigits...)
	exp := d.exp - len(d.fracDigits) + 2 // reais to cents
	// Drop leading zeros, then trailing zeros into the exponent.
	lead := digitsAt
	for lead < len(dst) && dst[lead] == '0' {
		lead++
	}
	n := copy(dst[digitsAt:], dst[lead:])
	dst = dst[:digitsAt+n]
	for len(dst) > digitsAt && dst[len(dst)-1] == '0' {
		dst = dst[:len(dst)-1]
		exp++
	}
	if len(dst) == digitsAt { // zero, whatever its sign and exponent
		return append(dst[:start], '0'), nil
	}
	if exp < 0 {
		return dst[:start], refusal(ReasonFractionOfCent, fmt.Errorf("amount %s has a fraction of a cent; refusing to round money", quoteValue(orig)))
	}
	if len(dst)-digitsAt+exp > pythonMaxIntDigits {
		return dst[:start], refusal(ReasonAmountRange, fmt.Errorf("amount %s has more than %d digits", quoteValue(orig), pythonMaxIntDigits))
	}
	for range exp {
		dst = append(dst, '0')
	}
	return dst, nil
}

func precisionError(orig []byte, sig int) error {
	return refusal(ReasonAmountPrecision, fmt.Errorf(
		"amount %s has %d significant digits; the reference computes cents in %d-digit decimal arithmetic and would round the money: refusing",
		quoteValue(orig), sig, pythonDecimalPrecision))
}
