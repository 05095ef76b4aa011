package derive

import (
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"
)

// NumberLiteral is a JSON number kept as its exact literal text.
type NumberLiteral string

const hexDigits = "0123456789abcdef"

// AppendCanonical appends the canonical JSON of v to dst: exactly what
// Python's json.dumps(v, sort_keys=True, separators=(",", ":"),
// ensure_ascii=False) produces. Object keys are sorted by code point (for
// valid UTF-8 that is byte order; JavaScript's UTF-16 order differs for
// characters beyond U+FFFF); strings escape only '"', '\\' and U+0000-U+001F;
// everything else, including '<', '>', '&', U+007F, U+2028 and U+2029, is
// written as raw UTF-8.
//
// v may be a string, NumberLiteral, bool, nil, int, int64, []any, []string,
// map[string]any or map[string]string. Strings must be valid UTF-8 and
// number literals valid JSON numbers.
func AppendCanonical(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		if v {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case string:
		return appendString(dst, v)
	case NumberLiteral:
		if !validNumber(string(v)) {
			return dst, fmt.Errorf("invalid JSON number %q", string(v))
		}
		return append(dst, v...), nil
	case int:
		return fmt.Appendf(dst, "%d", v), nil
	case int64:
		return fmt.Appendf(dst, "%d", v), nil
	case []string:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendString(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = AppendCanonical(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]string:
		return appendObject(dst, v, appendString[string])
	case map[string]any:
		return appendObject(dst, v, AppendCanonical)
	}
	return dst, fmt.Errorf("canonical JSON: unsupported type %T", v)
}

func appendObject[V any](dst []byte, m map[string]V, appendValue func([]byte, V) ([]byte, error)) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Go compares strings bytewise; for valid UTF-8 that is code point order,
	// which is what Python's sort of str keys uses.
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendString(dst, k); err != nil {
			return dst, err
		}
		dst = append(dst, ':')
		if dst, err = appendValue(dst, m[k]); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

var errInvalidUTF8 = refusal(ReasonInvalidText, errors.New("string is not valid UTF-8"))

// appendString writes s as a JSON string the way Python's json.dumps with
// ensure_ascii=False does. Invalid UTF-8 (including encoded surrogates) is
// refused: Python would either fail or emit text no other side can match.
func appendString[T ~string | ~[]byte](dst []byte, s T) ([]byte, error) {
	dst, err := appendStringBody(append(dst, '"'), s)
	if err != nil {
		return dst, err
	}
	return append(dst, '"'), nil
}

// appendStringBody is appendString without the quotes.
func appendStringBody[T ~string | ~[]byte](dst []byte, s T) ([]byte, error) {
	start := 0
	for i := 0; i < len(s); {
		// Fast path over ASCII that needs no escape.
		for i < len(s) && plainASCII[s[i]] {
			i++
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			// Converting at most 4 bytes keeps []byte input allocation-free.
			r, size := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
			if r == utf8.RuneError && size == 1 {
				return dst, errInvalidUTF8
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	return append(dst, s[start:]...), nil
}

// CanonicalString returns s as a canonical JSON string.
func CanonicalString(s string) (string, error) {
	b, err := appendString(nil, s)
	return string(b), err
}

func validNumber(s string) bool {
	var p parser
	p.reset([]byte(s))
	v, err := p.parseNumber()
	return err == nil && p.pos == len(s) && v.Kind == KindNumber
}
