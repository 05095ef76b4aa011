package derive

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ruleCents turns an amount in reais into integer cents with exact decimal
// arithmetic. It accepts a JSON number or a string holding a plain decimal
// (optional sign, ASCII digits, optional fraction, optional exponent,
// surrounding spaces or tabs) and refuses anything a money format would not
// produce or that would lose money: sub-cent precision, NaN, Infinity,
// digit separators, non-ASCII digits, booleans and null.
func ruleCents(in RuleInput) (string, error) {
	switch in.Value.Kind {
	case KindNumber:
		lit := string(in.Value.Raw)
		if !in.Value.integer {
			if err := checkFloatRoundTrip(lit); err != nil {
				return "", err
			}
		}
		return decimalToCents(lit, lit)
	case KindString:
		s, _ := in.Value.Text()
		return stringToCents(s)
	}
	return "", fmt.Errorf("want an amount (number or decimal string), got %s", describeValue(in.Value))
}

// checkFloatRoundTrip refuses JSON non-integer literals that a float64 does
// not carry exactly to the reference: ones that overflow to infinity, and
// ones with more digits than survive Python's float repr. Those would give
// the reference a different amount than the literal says.
func checkFloatRoundTrip(lit string) error {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) {
		return fmt.Errorf("amount %s is out of range", lit)
	}
	a, errA := parseDecimal(lit)
	b, errB := parseDecimal(strconv.FormatFloat(f, 'g', -1, 64))
	if errA != nil || errB != nil || !a.equal(b) {
		return fmt.Errorf("amount %s has more digits than a JSON float carries exactly; send it as a string", lit)
	}
	return nil
}

func stringToCents(s string) (string, error) {
	t := strings.Trim(s, " \t")
	if t == "" {
		return "", errors.New("empty amount")
	}
	switch strings.ToLower(strings.TrimLeft(t, "+-")) {
	case "nan", "snan", "inf", "infinity":
		return "", fmt.Errorf("amount %q is not a finite number", s)
	}
	return decimalToCents(t, s)
}

// decimal is sign * digits * 10^exp with digits a string of ASCII digits
// without leading zeros ("" for zero).
type decimal struct {
	neg    bool
	digits string
	exp    int
}

func (a decimal) equal(b decimal) bool {
	if a.digits == "" || b.digits == "" {
		return a.digits == b.digits
	}
	return a.neg == b.neg && a.digits == b.digits && a.exp == b.exp
}

// maxExponent bounds exponents; anything near it is far beyond the digits
// Python will print anyway.
const maxExponent = 1_000_000

var errNotDecimal = errors.New("not a plain decimal")

// parseDecimal reads [+-]digits[.digits][(e|E)[+-]digits] with ASCII digits
// only ("5." and ".5" included, as Python's Decimal reads them).
func parseDecimal(s string) (decimal, error) {
	var d decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	var mant strings.Builder
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	mant.WriteString(s[intStart:i])
	nDigits := i - intStart
	frac := 0
	if i < len(s) && s[i] == '.' {
		i++
		fracStart := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		frac = i - fracStart
		mant.WriteString(s[fracStart:i])
		nDigits += frac
	}
	if nDigits == 0 {
		return d, errNotDecimal
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		expStart := i
		for i < len(s) && isDigit(s[i]) {
			if exp < maxExponent {
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == expStart {
			return d, errNotDecimal
		}
		if exp >= maxExponent {
			return d, errors.New("exponent out of range")
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(s) {
		return d, errNotDecimal
	}
	digits := strings.TrimLeft(mant.String(), "0")
	exp -= frac
	// Drop trailing zeros so equal values compare equal.
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	d.digits = digits
	d.exp = exp
	return d, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// decimalToCents multiplies the decimal text t by 100 exactly. orig is the
// input as given, for error messages.
func decimalToCents(t, orig string) (string, error) {
	d, err := parseDecimal(t)
	if err != nil {
		if errors.Is(err, errNotDecimal) {
			return "", fmt.Errorf("amount %q is not a plain decimal (digits 0-9, optional sign, '.' fraction, exponent)", orig)
		}
		return "", fmt.Errorf("amount %q: %v", orig, err)
	}
	if d.digits == "" {
		return "0", nil
	}
	exp := d.exp + 2 // reais to cents
	if exp < 0 {
		return "", fmt.Errorf("amount %q has a fraction of a cent; refusing to round money", orig)
	}
	if len(d.digits)+exp > pythonMaxIntDigits {
		return "", fmt.Errorf("amount %q has more than %d digits", orig, pythonMaxIntDigits)
	}
	var b strings.Builder
	b.Grow(len(d.digits) + exp + 1)
	if d.neg {
		b.WriteByte('-')
	}
	b.WriteString(d.digits)
	for range exp {
		b.WriteByte('0')
	}
	return b.String(), nil
}
