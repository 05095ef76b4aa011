package restarttest

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// DefaultEnvelopeFields are the top-level fields taken for the transport's
// identity of a message when --envelope-field names none: a re-sent message
// carries fresh values there and the same business content everywhere else.
var DefaultEnvelopeFields = []string{"message_id", "messageId", "MessageId", "event_id", "eventId", "id"}

// Below the top level, the members taken for the message's identity
// (compared as foldName does): a message or delivery id anywhere, and an
// event's or a bare id only inside a member that holds the envelope
// (meta.event_id, event.id, entry[0].changes[0].value.messages[0].id).
// An event_id or id inside the business content (order.event_id, a
// concert's) is the content's, and a re-sent message keeps it.
var (
	nestedIDNames        = []string{"messageid", "deliveryid", "notificationid"}
	nestedEnvelopeIDs    = []string{"eventid", "id"}
	nestedEnvelopeHolder = []string{"meta", "metadata", "envelope", "header", "headers", "event", "message", "messages", "delivery", "notification"}
)

// nestedEnvelopePath reports a normalized path below the top level that
// names the message's identity.
func nestedEnvelopePath(path string) bool {
	segs := strings.Split(path, ".")
	if len(segs) < 2 {
		return false
	}
	leaf := foldName(segs[len(segs)-1])
	if slices.Contains(nestedIDNames, leaf) {
		return true
	}
	if !slices.Contains(nestedEnvelopeIDs, leaf) {
		return false
	}
	for i := len(segs) - 2; i >= 0; i-- {
		if _, err := strconv.Atoi(segs[i]); err == nil {
			continue // an array index: the member holding the array decides
		}
		return slices.Contains(nestedEnvelopeHolder, foldName(segs[i]))
	}
	return false
}

// EnvelopeChange is one envelope field of a re-sent message: its value in
// the original and the fresh value the resend round delivered.
type EnvelopeChange struct {
	Path string `json:"path"`
	From string `json:"from"` // JSON text of the original value
	To   string `json:"to"`   // JSON text of the fresh value
}

// envelopeSpan is where one envelope field's value sits in the message.
type envelopeSpan struct {
	path       string
	start, end int // byte offsets of the value's JSON text
}

// findEnvelope locates the envelope fields of msg: the given paths (each
// must be present, as a string or a number), or else those of
// DefaultEnvelopeFields that are present and the nested ones
// nestedEnvelopePath names. A message that is not a JSON
// object has no envelope.
func findEnvelope(msg []byte, paths []string) ([]envelopeSpan, error) {
	if len(paths) > 0 {
		return namedSpans(msg, paths, "--envelope-field")
	}
	out, err := namedSpans(msg, DefaultEnvelopeFields, "")
	if err != nil {
		return nil, err
	}
	nested, err := scalarSpansWhere(msg, nestedEnvelopePath)
	if err != nil {
		return out, nil // not JSON: no envelope
	}
	for _, p := range slices.Sorted(maps.Keys(nested)) {
		s := nested[p]
		s.path = p
		out = append(out, s)
	}
	return out, nil
}

// namedSpans locates the values at paths in msg. flag is the option that
// named them, each of which must then be present; "" means default paths,
// where a missing one, or a message that is not JSON, is no error.
func namedSpans(msg []byte, paths []string, flag string) ([]envelopeSpan, error) {
	explicit := flag != ""
	want := map[string]string{} // normalized path → as given
	for _, p := range paths {
		norm, err := normalizePath(p)
		if err != nil {
			return nil, fmt.Errorf("bad %s %q: %w", flag, p, err)
		}
		want[norm] = p
	}
	found, err := scalarSpans(msg, want)
	if err != nil {
		if explicit {
			return nil, fmt.Errorf("%s: the message is not JSON (%v): a re-sent message needs a JSON message", flag, err)
		}
		return nil, nil
	}
	var out []envelopeSpan
	for _, p := range paths {
		norm, _ := normalizePath(p)
		s, ok := found[norm]
		if !ok {
			if explicit {
				return nil, fmt.Errorf("%s %q: not in the message as a string or number", flag, p)
			}
			continue
		}
		s.path = p
		out = append(out, s)
	}
	return out, nil
}

// normalizePath turns "$.a.b[0].c", "a.b.0.c" and "a.b[0].c" into one
// spelling: segments joined by ".", array indices as numbers.
func normalizePath(p string) (string, error) {
	p = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(p), "$"), ".")
	p = strings.ReplaceAll(strings.ReplaceAll(p, "[", "."), "]", "")
	segs := strings.Split(p, ".")
	if p == "" || slices.Contains(segs, "") {
		return "", errors.New("want a JSON path such as message_id or meta.event_id or entry[0].id")
	}
	return strings.Join(segs, "."), nil
}

// pathFrame is one open object or array while scanning a message.
type pathFrame struct {
	array   bool
	key     string // object: the key of the value being read
	index   int    // array: index of the value being read
	wantKey bool   // object: the next token is a key
}

// scalarSpans walks the JSON tokens of msg and returns where the string
// and number values at the wanted paths are.
func scalarSpans(msg []byte, want map[string]string) (map[string]envelopeSpan, error) {
	return scalarSpansWhere(msg, func(path string) bool { _, ok := want[path]; return ok })
}

// scalarSpansWhere returns where the string and number values of msg are
// whose normalized path match accepts.
func scalarSpansWhere(msg []byte, match func(path string) bool) (map[string]envelopeSpan, error) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	found := map[string]envelopeSpan{}
	var stack []pathFrame
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(stack) == 0 {
			if d, ok := tok.(json.Delim); !ok || d != '{' {
				return nil, errors.New("not a JSON object")
			}
		}
		top := len(stack) - 1
		if top >= 0 && !stack[top].array && stack[top].wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = endValue(stack[:top])
				continue
			}
			stack[top].key, stack[top].wantKey = tok.(string), false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, pathFrame{wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, pathFrame{array: true})
			continue
		case json.Delim(']'):
			stack = endValue(stack[:top])
			continue
		}
		switch tok.(type) {
		case string, json.Number:
			if match(pathOf(stack)) {
				start := int(before) + skipSeparators(msg[before:])
				found[pathOf(stack)] = envelopeSpan{start: start, end: int(dec.InputOffset())}
			}
		}
		stack = endValue(stack)
	}
	return found, nil
}

// endValue moves the innermost container past the value just read.
func endValue(stack []pathFrame) []pathFrame {
	if top := len(stack) - 1; top >= 0 {
		if stack[top].array {
			stack[top].index++
		} else {
			stack[top].wantKey = true
		}
	}
	return stack
}

func pathOf(stack []pathFrame) string {
	segs := make([]string, len(stack))
	for i, f := range stack {
		if f.array {
			segs[i] = strconv.Itoa(f.index)
		} else {
			segs[i] = f.key
		}
	}
	return strings.Join(segs, ".")
}

func skipSeparators(b []byte) int {
	i := 0
	for i < len(b) && strings.IndexByte(" \t\r\n:,", b[i]) >= 0 {
		i++
	}
	return i
}

// resent returns msg with each envelope value replaced by a fresh one of
// the same shape, every other byte unchanged.
func resent(msg []byte, spans []envelopeSpan) ([]byte, []EnvelopeChange) {
	ordered := slices.Clone(spans)
	slices.SortFunc(ordered, func(a, b envelopeSpan) int { return a.start - b.start })
	var out bytes.Buffer
	var changes []EnvelopeChange
	last := 0
	for _, s := range ordered {
		from := msg[s.start:s.end]
		to := freshValue(from)
		out.Write(msg[last:s.start])
		out.Write(to)
		last = s.end
		changes = append(changes, EnvelopeChange{Path: s.path, From: string(from), To: string(to)})
	}
	out.Write(msg[last:])
	return out.Bytes(), changes
}

// freshValue draws a new value shaped like the JSON text old: a string
// keeps its length and character classes (a UUID stays a UUID), a number
// stays an integer.
func freshValue(old []byte) []byte {
	var s string
	if err := json.Unmarshal(old, &s); err != nil {
		n, _ := rand.Int(rand.Reader, big.NewInt(1_000_000_000))
		return []byte(strconv.FormatInt(n.Int64()+1_000_000_000, 10))
	}
	if strings.IndexFunc(s, isAlnum) < 0 {
		b, _ := json.Marshal(s + randomHex(8))
		return b
	}
	// A word prefix ("wamid.", "evt_") names the kind of id: it stays.
	keep := 0
	if i := strings.IndexAny(s, ".-_:"); i > 0 && strings.Trim(s[:i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" &&
		strings.IndexFunc(s[i:], isAlnum) >= 0 && !isHexish(s) {
		keep = i + 1
	}
	for {
		fresh := []rune(s)
		for i, r := range fresh {
			if i < keep {
				continue
			}
			switch {
			case r >= '0' && r <= '9':
				fresh[i] = randomRune("0123456789")
			case r >= 'a' && r <= 'f' && isHexish(s):
				fresh[i] = randomRune("0123456789abcdef")
			case r >= 'a' && r <= 'z':
				fresh[i] = randomRune("abcdefghijklmnopqrstuvwxyz")
			case r >= 'A' && r <= 'Z':
				fresh[i] = randomRune("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
			}
		}
		if string(fresh) != s {
			b, _ := json.Marshal(string(fresh))
			return b
		}
	}
}

// isHexish reports whether s looks hexadecimal (a UUID, a hex digest), so
// its letters are redrawn from a-f.
func isHexish(s string) bool {
	return strings.Trim(strings.ToLower(s), "0123456789abcdef-") == ""
}

func randomRune(alphabet string) rune {
	n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
	return rune(alphabet[n.Int64()])
}

func isAlnum(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// keysCarryRenewed names the envelope field whose old value one key
// carries and whose fresh value another does: the key follows that field,
// which a re-send renews, whatever else the round changed (a respelling).
// "" when no key shows one (a digest hides what it was taken over).
func keysCarryRenewed(keys []string, renewed []EnvelopeChange) string {
	for _, c := range renewed {
		var from, to string
		if json.Unmarshal([]byte(c.From), &from) != nil || json.Unmarshal([]byte(c.To), &to) != nil || len(from) < 6 || len(to) < 6 {
			continue // too short to tell from a coincidence
		}
		if slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(k, from) }) &&
			slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(k, to) }) {
			return fmt.Sprintf("the key carries %s (%s, then %s), which a re-send renews: derive it from what the message asks for, not from how it was sent", c.Path, clip(from), clip(to))
		}
	}
	return ""
}

// clip shortens a long value to its start, for a one-line explanation.
func clip(s string) string {
	if r := []rune(s); len(r) > 16 {
		return string(r[:12]) + "…"
	}
	return s
}
