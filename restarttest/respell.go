package restarttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/idemcheck/idemcheck/derive/pixkey"
)

// The respell round: the sender re-sends the same business message (a user
// pressing again, a client retrying from its own copy) under fresh envelope
// ids, as the resend round does, and spelled another way: its JSON members
// reordered, a CPF, CNPJ, phone, e-mail or Pix EVP key written in another of
// the spellings real systems produce (pixkey.Spellings, the generator
// normcheck tries), an amount as 150, 150.0 or "150.00" (keeping its JSON
// type). The first delivery is killed where the provider has executed its
// first effect request but the answer never arrived, and the re-send comes
// before the first's redelivery: a handler that keys the raw text makes the
// effect twice; one that sends this delivery's copy instead of the row it
// froze sends the provider another body under the same key. When the clean
// round made no effect request there is nothing to kill around: the re-send
// follows the first delivery's acknowledgement.

// respellKinds are the identifier kinds tried on each string, in order.
var respellKinds = []pixkey.Kind{pixkey.CPF, pixkey.CNPJ, pixkey.Email, pixkey.Phone, pixkey.EVP}

// respelled returns the message with its members reordered and every
// identifier and amount spelled another way, and what was respelled;
// ok is false when the message has nothing to respell (not a JSON object,
// or no identifier or amount in it).
func respelled(msg []byte, skip map[string]bool) ([]byte, []EnvelopeChange, bool) {
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
	respellValue(v, "", skip, &changes)
	if len(changes) == 0 {
		return nil, nil, false
	}
	var b bytes.Buffer
	writeReordered(&b, v)
	return b.Bytes(), changes, true
}

// respellValue respells the identifiers and amounts under v in place; the
// paths in skip (normalized, see normalizePath: the envelope's, renewed
// instead) keep their value.
func respellValue(v any, path string, skip map[string]bool, changes *[]EnvelopeChange) {
	m, ok := v.(map[string]any)
	if !ok {
		if arr, ok := v.([]any); ok {
			for i, e := range arr {
				respellValue(e, path+"["+strconv.Itoa(i)+"]", skip, changes)
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
		if norm, err := normalizePath(p); err == nil && skip[norm] {
			continue
		}
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
			respellValue(old, p, skip, changes)
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

// respellApplies: the message has an identifier or an amount to spell
// another way. Not with --client-key: the client owns the operation's key,
// and a changed body under it is the mismatch probe's case.
func (h *harness) respellApplies() bool {
	if h.cfg.Delivery.clientKey() {
		return false
	}
	_, _, ok := respelled(h.cfg.Message, h.envelopePaths())
	return ok
}

// checkRespellPlan refuses an explicit respell round with nothing to
// respell.
func (h *harness) checkRespellPlan() error {
	for _, k := range h.cfg.KillPoints {
		switch {
		case k.Kind != KillRespell || h.respellApplies():
		case h.cfg.Delivery.clientKey():
			return errors.New("--kill-at respell does not apply with --client-key: the client owns the operation's key, and a changed body under it is the mismatch probe's case")
		default:
			return errors.New("--kill-at respell: the message has nothing to spell another way (a JSON object with a CPF, CNPJ, phone, e-mail or Pix key, or an amount, valor or value field)")
		}
	}
	return nil
}

// envelopePaths are the envelope's paths, normalized: the resend and
// respell rounds renew them, and never respell them.
func (h *harness) envelopePaths() map[string]bool {
	out := map[string]bool{}
	for _, s := range h.envelope {
		if n, err := normalizePath(s.path); err == nil {
			out[n] = true
		}
	}
	return out
}

// respellKill is the first delivery's kill in a respell round: the first
// response when the clean round made an effect request; none otherwise.
func (h *harness) respellKill() KillPoint {
	if h.learned.RequestsPerAttempt > 0 || !h.learnedOK {
		return KillPoint{Kind: KillResponse, N: 1}
	}
	return KillPoint{Kind: KillNone}
}

// prepareRespell makes the re-sent message of a respell round: fresh
// envelope ids, the rest spelled another way.
func (rs *roundState) prepareRespell() error {
	renewed, envChanges := resent(rs.h.cfg.Message, rs.h.envelope)
	body, changes, ok := respelled(renewed, rs.h.envelopePaths())
	if !ok {
		return errors.New("respell: the message has nothing to spell another way")
	}
	file, err := writeMessageFile(body)
	if err != nil {
		return err
	}
	rs.resend = &delivered{body: body, file: file}
	rs.resendChanges, rs.respellChanges = envChanges, changes
	return nil
}

// deliverRespell delivers the original until its kill (or its
// acknowledgement), then the re-sent message until acknowledged, then the
// original's redeliveries.
func (rs *roundState) deliverRespell(ctx context.Context, loop func(delivery int) deliveryLoop) {
	if !rs.kp.kills() {
		rs.deliverResend(ctx, loop)
		return
	}
	original := loop(1)
	original.pauseOnKill = true
	end := original.run(ctx, rs)
	if ctx.Err() != nil {
		return
	}
	loop(2).run(ctx, rs)
	if !end.over && ctx.Err() == nil {
		original = loop(1)
		original.first = end.next
		original.run(ctx, rs)
	}
}

// respellExplanation is why the same message spelled another way got a
// second key: what was spelled another way.
func respellExplanation(changes []EnvelopeChange) string {
	parts := make([]string, 0, len(changes))
	for _, c := range changes {
		parts = append(parts, fmt.Sprintf("%s %s → %s", c.Path, c.From, c.To))
	}
	return "the key follows how the message is spelled, not what it says (" + strings.Join(parts, ", ") +
		", members reordered): normalize before keying"
}
