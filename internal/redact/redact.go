// Package redact keeps secrets out of what a command prints. A secret is
// given in the wrong place by mistake (pasted as a flag value, a path, a
// JSON member name, inside a handler command) and then echoed by an error
// message or a report; rather than guard every message, every byte a
// command writes goes through a Writer that replaces the secret, in every
// form a message may quote it, by a placeholder.
package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// Placeholder replaces a secret in the output.
const Placeholder = "[secret hidden]"

// fallback replaces a secret that is itself part of Placeholder.
const fallback = "***"

// Secrets is the set of secrets a run must not print. The zero value is
// empty and ready; it is safe for concurrent use.
type Secrets struct {
	mu    sync.RWMutex
	forms [][]byte // longest first
	long  int      // length of the longest form
}

// MinLength is the shortest secret hidden. A shorter one cannot be told
// from the rest of the output (a one-letter secret would take every such
// letter out of every key and message), and it protects nothing anyway:
// trying every secret of 3 bytes takes a moment.
const MinLength = 4

// Add registers a secret. Secrets shorter than MinLength once trimmed, and
// blank ones, are ignored: redacting spaces would only garble the output,
// and commands refuse them.
func (s *Secrets) Add(secret string) {
	if len(strings.TrimSpace(secret)) < MinLength {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range forms(secret) {
		if len(strings.TrimSpace(f)) < MinLength || s.has(f) {
			continue
		}
		s.forms = append(s.forms, asciiLower([]byte(f)))
		s.long = max(s.long, len(f))
	}
	sort.SliceStable(s.forms, func(i, j int) bool { return len(s.forms[i]) > len(s.forms[j]) })
}

func (s *Secrets) has(f string) bool {
	for _, g := range s.forms {
		if string(g) == string(asciiLower([]byte(f))) {
			return true
		}
	}
	return false
}

// forms are the spellings in which output may carry the secret: as given,
// trimmed, quoted (Go's %q, with and without non-ASCII escapes), escaped
// inside a JSON string (with and without HTML escapes), with control
// characters removed or whitespace folded as one-line messages do.
func forms(secret string) []string {
	trimmed := strings.TrimSpace(secret)
	out := []string{secret, trimmed}
	for _, v := range []string{secret, trimmed} {
		out = append(out,
			unquote(strconv.Quote(v)),
			unquote(strconv.QuoteToASCII(v)),
			jsonString(v, false),
			jsonString(v, true),
			procgroup.Printable(v),
			procgroup.OneLine(v),
			procgroup.Escaped(v),
			strings.Join(strings.Fields(v), " "),
		)
	}
	return out
}

func unquote(q string) string { return q[1 : len(q)-1] }

func jsonString(s string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(s)
	return unquote(strings.TrimSuffix(b.String(), "\n"))
}

// replace returns buf with every form of every secret replaced, and how
// many bytes at its end must wait for more output: they could be the start
// of a secret that the next write completes. Matching ignores ASCII case:
// an upper-cased secret (normcheck's spellings) gives it away as well.
// buf itself is never modified; *scratch is reused for its lowered copy.
func (s *Secrets) replace(buf []byte, scratch *[]byte) ([]byte, int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.forms) == 0 {
		return buf, 0
	}
	*scratch = appendLower((*scratch)[:0], buf)
	lower := *scratch
	for _, f := range s.forms {
		if bytes.Contains(lower, f) {
			buf, lower = replaceFolded(buf, lower, f, s.placeholder())
		}
	}
	for k := min(s.long-1, len(lower)); k > 0; k-- {
		tail := lower[len(lower)-k:]
		for _, f := range s.forms {
			if len(f) > k && bytes.HasPrefix(f, tail) {
				return buf, k
			}
		}
	}
	return buf, 0
}

// replaceFolded replaces in buf every place where lower (buf with ASCII
// lowered) holds form, which is lowered too.
func replaceFolded(buf, lower, form, with []byte) ([]byte, []byte) {
	var out, outLower []byte
	for {
		i := bytes.Index(lower, form)
		if i < 0 {
			break
		}
		out = append(append(out, buf[:i]...), with...)
		outLower = append(append(outLower, lower[:i]...), asciiLower(with)...)
		buf, lower = buf[i+len(form):], lower[i+len(form):]
	}
	return append(out, buf...), append(outLower, lower...)
}

// asciiLower is bytes.ToLower for ASCII letters only: it keeps every
// byte's offset, so a match in it is a match at the same place in b.
func asciiLower(b []byte) []byte { return appendLower(make([]byte, 0, len(b)), b) }

func appendLower(dst, b []byte) []byte {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func (s *Secrets) placeholder() []byte {
	for _, f := range s.forms {
		if bytes.Contains(asciiLower([]byte(Placeholder)), f) {
			return []byte(fallback)
		}
	}
	return []byte(Placeholder)
}

// String returns text with the secrets replaced, for text that is not
// written through a Writer.
func (s *Secrets) String(text string) string {
	var scratch []byte
	out, _ := s.replace([]byte(text), &scratch)
	return string(out)
}

// Writer writes to an underlying writer with the secrets replaced. Bytes
// that could begin a secret are held until the next write shows whether
// they do, or until Flush.
type Writer struct {
	s       *Secrets
	w       io.Writer
	mu      sync.Mutex
	pending []byte // held back: could be the start of a secret
	scratch []byte // reused by replace
}

// NewWriter returns a Writer to w that hides s.
func NewWriter(w io.Writer, s *Secrets) *Writer { return &Writer{s: s, w: w} }

// Write accepts all of p; an error is the underlying writer's.
func (x *Writer) Write(p []byte) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	buf := p
	if len(x.pending) > 0 {
		buf = append(x.pending, p...)
	}
	out, hold := x.s.replace(buf, &x.scratch)
	x.pending = append(x.pending[:0:0], out[len(out)-hold:]...)
	if cap(x.scratch) > 1<<20 {
		x.scratch = nil // do not keep a huge write's copy
	}
	if len(out) > hold {
		if _, err := x.w.Write(out[:len(out)-hold]); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what Write held back.
func (x *Writer) Flush() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.pending) == 0 {
		return nil
	}
	out, _ := x.s.replace(x.pending, &x.scratch)
	x.pending = nil
	_, err := x.w.Write(out)
	return err
}
