package normcheck

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/derive/pixkey"
)

func TestPayloadTemplateReplacesOnlyTheField(t *testing.T) {
	tmpl, err := NewPayloadTemplate([]byte(`{"a": 1.50, "k": "x", "z": [1, 2]}`), "k")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(tmpl.With("<\"é\">")); got != `{"a": 1.50, "k": "<\"é\">", "z": [1, 2]}`+"\n" {
		t.Errorf("With = %s", got)
	}
	if _, err := NewPayloadTemplate([]byte(`{"a": 1}`), "k"); err == nil {
		t.Error("a payload without the field is accepted")
	}
	if _, err := NewPayloadTemplate([]byte(`[1]`), "k"); err == nil {
		t.Error("a payload that is no object is accepted")
	}
}

// The e-mail rule folds case and spaces, so every spelling agrees.
func TestCheckWithARule(t *testing.T) {
	norm := RuleNormalizer(Info{Rule: "pix_key"}, "rule pix_key", pixkey.Email)
	rep, err := Check(context.Background(), pixkey.Email, []string{"Fulano@Example.COM", "not-an-email"}, norm)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || !rep.Values[0].Passed() || rep.Values[1].Valid || len(rep.Values[0].Spellings) < 3 {
		t.Errorf("report %+v", rep)
	}
}

// A key command that ignores the field passes agreement, and the audit
// catches it; a failing one names the spelling by form and position.
func TestKeyCommandAudits(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	t.Parallel()
	payload, err := NewPayloadTemplate([]byte(`{"k": ""}`), "k")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	constant := KeyCommand{Command: "cat >/dev/null; echo same", Timeout: 10 * time.Second}.Normalizer(payload, "k")
	rep, err := Check(ctx, pixkey.CPF, []string{"111.444.777-35"}, constant)
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Values[0]
	if !v.Agree || v.Passed() || len(v.Checks) != 2 || v.Checks[1].OK {
		t.Errorf("a key that ignores the field: %+v", v.Checks)
	}
	failing := KeyCommand{Command: "cat >/dev/null; echo 'no vault' >&2; exit 3", Timeout: 10 * time.Second}.Normalizer(payload, "k")
	_, err = Check(ctx, pixkey.CPF, []string{"111.444.777-35"}, failing)
	var ce *CommandError
	if !errors.As(err, &ce) || ce.Value != 1 || ce.Form == "" || !strings.Contains(err.Error(), "no vault") || strings.Contains(err.Error(), "111") {
		t.Errorf("err = %v", err)
	}
}

// A cancelled context stops the key command at once and is the error.
func TestKeyCommandStopsWithTheContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := KeyCommand{Command: "sleep 300", Timeout: time.Minute}.Key(ctx, nil)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Errorf("err %v after %s", err, time.Since(start))
	}
}
