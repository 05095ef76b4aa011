package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/idemcheck/idemcheck/derive"
	"github.com/idemcheck/idemcheck/derive/pixkey"
	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// This file holds `normcheck --exec`: feeding each spelling to the user's
// own key command and the checks that keep its agreement honest.

// execNormalizer runs the user's command once per spelling, with the
// payload's field replaced by the spelling, and takes its stdout as the key.
func execNormalizer(opts *NormcheckOptions) (*normalizer, error) {
	data, err := readPayloadFile(opts)
	if err != nil {
		return nil, err
	}
	payload, err := newPayloadTemplate(data, opts.Field)
	if err != nil {
		return nil, UsageErrorf("--payload %s: %v", opts.Payload, err)
	}
	run := func(spelling string) (string, error) {
		key, err := runKeyCommand(opts.Exec, payload.with(spelling), opts.Timeout)
		if err != nil {
			return "", UsageErrorf("--exec on spelling %s: %v", strconv.Quote(spelling), err)
		}
		return key, nil
	}
	return &normalizer{
		describe:  fmt.Sprintf("command %s (payload %s, field %s)", strconv.Quote(opts.Exec), opts.Payload, opts.Field),
		info:      normalizerJSON{Exec: opts.Exec, Field: opts.Field},
		normalize: run,
		audits:    true,
		failFast:  true,
	}, nil
}

func readPayloadFile(opts *NormcheckOptions) ([]byte, error) {
	data, err := readInput(opts.IO.In, opts.Payload)
	if err != nil {
		return nil, UsageErrorf("--payload: %v", err)
	}
	return data, nil
}

// payloadTemplate is a JSON object whose member field is replaced by each
// spelling. Every other member keeps its exact source text and order.
type payloadTemplate struct {
	members []payloadMember
	field   int // index of the replaced member
}

type payloadMember struct {
	name string
	raw  []byte
}

func newPayloadTemplate(data []byte, field string) (*payloadTemplate, error) {
	v, err := derive.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	if v.Kind != derive.KindObject {
		return nil, errors.New("want a JSON object")
	}
	t := &payloadTemplate{field: -1}
	for i, m := range v.Members() {
		t.members = append(t.members, payloadMember{name: m.Name(), raw: m.Value.Raw})
		if m.Name() == field {
			t.field = i
		}
	}
	if t.field < 0 {
		// Adding the field would let a command that ignores it pass.
		return nil, fmt.Errorf("no field %q to replace", field)
	}
	return t, nil
}

// with returns the payload with the field set to the JSON string s.
func (t *payloadTemplate) with(s string) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range t.members {
		if i > 0 {
			b.WriteString(", ")
		}
		writeJSONString(&b, m.name)
		b.WriteString(": ")
		if i == t.field {
			writeJSONString(&b, s)
		} else {
			b.Write(m.raw)
		}
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}

// auditChecks guards against a --exec command that passes for the wrong
// reason: a key drawn inside the attempt (uuid, time) changes between two
// runs on the same input, and a key that ignores the field stays the same
// for another identifier.
func auditChecks(kind pixkey.Kind, value, reference string, norm *normalizer) ([]auditCheck, error) {
	again, err := norm.normalize(value)
	if err != nil {
		return nil, err
	}
	repeat := auditCheck{Name: "repeat", OK: again == reference, Input: value, Key: again,
		Detail: "the same input gives the same key"}
	if !repeat.OK {
		repeat.Detail = "the same input gave two keys: the key is drawn inside the attempt (random, time, message id), not derived from the payload"
	}
	other, err := pixkey.Other(kind, value)
	if err != nil {
		return nil, err
	}
	otherKey, err := norm.normalize(other)
	if err != nil {
		return nil, err
	}
	distinct := auditCheck{Name: "other_value", OK: otherKey != reference, Input: other, Key: otherKey,
		Detail: "another identifier gives another key"}
	if !distinct.OK {
		distinct.Detail = "another identifier gives the same key: the command ignores the field, so its agreement proves nothing"
	}
	return []auditCheck{repeat, distinct}, nil
}

// maxStderrTail is how much of a failing command's stderr the error shows.
const maxStderrTail = 400

// maxKeyOutput bounds what is kept of a command's stdout: a key is short,
// and a runaway command must not exhaust memory.
const maxKeyOutput = 64 << 10

// runKeyCommand runs command with sh -c in its own process group, feeds it
// stdin and returns its trimmed stdout. A command that exits non-zero, runs
// longer than timeout (its whole process group is killed) or prints nothing
// is an error carrying the tail of its stderr. Whatever it started, in its
// group or escaped from it, is killed when it exits.
func runKeyCommand(command string, stdin []byte, timeout time.Duration) (string, error) {
	c := exec.Command("sh", "-c", command)
	c.Stdin = bytes.NewReader(stdin)
	stdout := procgroup.NewTail(maxKeyOutput)
	stderr := procgroup.NewTail(4 * maxStderrTail)
	c.Stdout, c.Stderr = stdout, stderr
	g, err := procgroup.Start(c)
	if err != nil {
		return "", fmt.Errorf("cannot start sh: %v", err)
	}
	var timedOut atomic.Bool
	timer := time.AfterFunc(timeout, func() {
		timedOut.Store(true)
		g.Kill()
	})
	err = g.Wait()
	timer.Stop()
	tail := stderrTail(stderr.String())
	switch {
	case timedOut.Load():
		return "", fmt.Errorf("did not finish within %s; killed its process group%s", timeout, tail)
	case g.OutputHeld() || errors.Is(err, exec.ErrWaitDelay):
		// The command exited, but a process it started kept its output
		// (or stdin) open: what we read may not be the whole key.
		return "", fmt.Errorf("exited but left a background process holding its stdout or stderr open; a key command must finish before it exits%s", tail)
	case err != nil:
		return "", fmt.Errorf("%v%s", err, tail)
	case stdout.Truncated():
		return "", fmt.Errorf("printed more than %d bytes on stdout, which is no key%s", maxKeyOutput, tail)
	}
	key := strings.TrimSpace(stdout.String())
	if key == "" {
		return "", fmt.Errorf("printed no key on stdout%s", tail)
	}
	return key, nil
}

// stderrTail returns the last lines of a command's stderr, printable and on
// one line, ready to append to an error, or "".
func stderrTail(s string) string {
	s = procgroup.OneLine(s)
	if s == "" {
		return ""
	}
	if len(s) > maxStderrTail {
		s = "…" + strings.ToValidUTF8(s[len(s)-maxStderrTail:], "")
	}
	return "; stderr: " + s
}
