package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

const secret = "sk_live_<\"tab\there\">é"

func TestWriterHidesEveryForm(t *testing.T) {
	var s Secrets
	s.Add(secret)
	jsonHTML, _ := json.Marshal(map[string]string{"v": secret})
	var jsonPlain bytes.Buffer
	enc := json.NewEncoder(&jsonPlain)
	enc.SetEscapeHTML(false)
	_ = enc.Encode([]string{"x" + secret + "y"})
	for name, text := range map[string]string{
		"raw":          "flag value " + secret + " end",
		"quoted":       fmt.Sprintf("--set %q: want field=value", secret),
		"ascii quoted": strconv.QuoteToASCII(secret),
		"json html":    string(jsonHTML),
		"json":         jsonPlain.String(),
		"trimmed":      "a" + strings.TrimSpace("  "+secret+"  ") + "b",
		"folded":       strings.Join(strings.Fields("msg "+secret), " "),
	} {
		var out bytes.Buffer
		w := NewWriter(&out, &s)
		// One byte a write: a secret split across writes is still hidden.
		for i := range len(text) {
			if _, err := w.Write([]byte{text[i]}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if strings.Contains(got, "tab") || !strings.Contains(got, Placeholder) {
			t.Errorf("%s: %q printed as %q", name, text, got)
		}
	}
}

func TestWriterPassesOtherTextThrough(t *testing.T) {
	var s Secrets
	s.Add("abcdef")
	var out bytes.Buffer
	w := NewWriter(&out, &s)
	// "abc" could start the secret: held until the next write says no.
	for _, part := range []string{"x abc", "xyz ab", "cdef.", " abcde"} {
		_, _ = w.Write([]byte(part))
	}
	if out.String() != "x abcxyz "+Placeholder+". " {
		t.Errorf("before Flush: %q", out.String())
	}
	_ = w.Flush()
	if out.String() != "x abcxyz "+Placeholder+". abcde" {
		t.Errorf("after Flush: %q", out.String())
	}
}

func TestBlankSecretHidesNothing(t *testing.T) {
	var s Secrets
	s.Add(" \n\t")
	if got := s.String("a b\n"); got != "a b\n" {
		t.Errorf("%q", got)
	}
}

func TestSecretInsidePlaceholder(t *testing.T) {
	var s Secrets
	s.Add("secret")
	if got := s.String("my secret"); got != "my "+fallback {
		t.Errorf("%q", got)
	}
}

func TestCaseDoesNotMatter(t *testing.T) {
	var s Secrets
	s.Add("sk_Live_abc")
	if got := s.String("SK_LIVE_ABC sk_live_abc Sk_live_aBc."); got != Placeholder+" "+Placeholder+" "+Placeholder+"." {
		t.Errorf("%q", got)
	}
}

func TestTooShortToHide(t *testing.T) {
	var s Secrets
	s.Add("abc")
	if got := s.String("abc abcd"); got != "abc abcd" {
		t.Errorf("%q", got)
	}
	s.Add(" abcd ")
	if got := s.String("abc abcd"); got != "abc "+Placeholder {
		t.Errorf("%q", got)
	}
}
