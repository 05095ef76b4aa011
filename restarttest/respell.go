package restarttest

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/idemcheck/idemcheck/derive/pixkey"
)

// The respell round: the handler is killed where the provider has executed
// its first effect request but the response never arrived (at its first
// write when it makes no effect request), and every redelivery is the same
// message re-serialized with equal values spelled another way — its
// JSON members reordered, a CPF, CNPJ, phone, e-mail or Pix EVP key written
// in another of the spellings real systems produce (pixkey.Spellings, the
// generator normcheck uses), an amount as 150, 150.0 or "150.00" (keeping
// its JSON type). Its envelope ids stay: a relay that re-encodes the
// message, a sender retrying from its own copy. A handler that keys the
// raw text makes the effect twice; one that uses this delivery's copy
// instead of the row it froze sends the provider another body under the
// same key.

// respellKinds are the identifier kinds tried on each string, in order.
var respellKinds = []pixkey.Kind{pixkey.CPF, pixkey.CNPJ, pixkey.Email, pixkey.Phone, pixkey.EVP}

// respelled returns the message with its members reordered and every
// identifier and amount spelled another way, and what was respelled;
// ok is false when the message has nothing to respell (not a JSON object,
// or no identifier or amount in it).
func respelled(msg []byte) ([]byte, []EnvelopeChange, bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, nil, false
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, nil, false
	}
	var changes []EnvelopeChange
	respellValue(v, "", &changes)
	if len(changes) == 0 {
		return nil, nil, false
	}
	var b bytes.Buffer
	writeReordered(&b, v)
	return b.Bytes(), changes, true
}

func respellValue(v any, path string, changes *[]EnvelopeChange) {
	m, ok := v.(map[string]any)
	if !ok {
		if arr, ok := v.([]any); ok {
			for i, e := range arr {
				respellValue(e, path+"["+strconv.Itoa(i)+"]", changes)
			}
		}
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		p := k
		if path != "" {
			p = path + "." + k
		}
		old := m[k]
		var now any
		switch x := old.(type) {
		case string:
			if slices.Contains(amountNames, k) {
				now = respellAmountText(x)
			} else {
				now = respellIdentifier(x)
			}
		case json.Number:
			if slices.Contains(amountNames, k) {
				now = respellAmountNumber(x)
			}
		default:
			respellValue(old, p, changes)
			continue
		}
		if now == nil {
			continue
		}
		m[k] = now
		from, _ := json.Marshal(old)
		to, _ := json.Marshal(now)
		*changes = append(*changes, EnvelopeChange{Path: p, From: string(from), To: string(to)})
	}
}

// respellIdentifier is another spelling of s when s is a valid identifier
// of one of respellKinds; nil otherwise.
func respellIdentifier(s string) any {
	for _, k := range respellKinds {
		sp, err := pixkey.Spellings(k, s)
		if err != nil {
			continue
		}
		for _, alt := range sp[1:] {
			// A spelling without surrounding whitespace: what another
			// system writes, not a typing accident.
			if alt.Value != s && alt.Value == strings.TrimSpace(alt.Value) {
				return alt.Value
			}
		}
	}
	return nil
}

// respellAmountText writes a decimal string amount with another number of
// places: "150.00" → "150", "150" → "150.00".
func respellAmountText(s string) any {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	if strings.Contains(s, ".") {
		if t := strings.TrimRight(strings.TrimRight(s, "0"), "."); t != s && t != "" {
			return t
		}
		return nil
	}
	return strconv.FormatFloat(f, 'f', 2, 64)
}

// respellAmountNumber writes a JSON number amount another way: 150 →
// 150.0, 150.00 → 150.
func respellAmountNumber(n json.Number) any {
	s := n.String()
	if strings.ContainsAny(s, "eE") {
		return nil
	}
	if !strings.Contains(s, ".") {
		return json.Number(s + ".0")
	}
	if t := strings.TrimRight(strings.TrimRight(s, "0"), "."); t != s && t != "" {
		return json.Number(t)
	}
	return nil
}

// writeReordered writes v as JSON with every object's members in reverse
// key order: another order than the original's and than sorted.
func writeReordered(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		slices.Reverse(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			writeReordered(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeReordered(b, e)
		}
		b.WriteByte(']')
	default:
		out, _ := json.Marshal(x)
		b.Write(out)
	}
}

// respellApplies: the message has something to respell, and idemcheck
// makes the redeliveries: stdin or a plain POST, not a broker (which
// redelivers its own copy) nor --client-key (the body is the client's
// request, and the mismatch probe covers a changed one).
func (h *harness) respellApplies() bool {
	if h.transport != nil || h.cfg.ClientKey {
		return false
	}
	_, _, ok := respelled(h.cfg.Message)
	return ok
}

// respellKill is the kill of a respell round: the first response when the
// clean round made an effect request, else the first write.
func (h *harness) respellKill() KillPoint {
	if h.learned.RequestsPerAttempt > 0 || !h.learnedOK {
		return KillPoint{Kind: KillResponse, N: 1}
	}
	return KillPoint{Kind: KillDBWrite, N: 1}
}

// attemptMessage is what attempt i of delivery d sends: in a respell round
// every redelivery is the respelled message.
func (rs *roundState) attemptMessage(d, i int) delivered {
	if rs.respell != nil && i > 1 {
		return *rs.respell
	}
	return rs.message(d)
}

// prepareRespell makes the redeliveries' message of a respell round.
func (rs *roundState) prepareRespell() error {
	body, changes, ok := respelled(rs.h.cfg.Message)
	if !ok {
		body, changes = rs.h.cfg.Message, nil
	}
	file, err := writeMessageFile(body)
	if err != nil {
		return err
	}
	rs.respell = &delivered{body: body, file: file}
	rs.respellChanges = changes
	return nil
}
