package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/derive"
	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// testSecret must never show up in any output.
const testSecret = "s3cr3t-DO-NOT-PRINT"

// Vector v1-0002 of testdata/derive-v1.jsonl, derived with its own secret.
const (
	vecTenant  = "acme42"
	vecAction  = "pix.cobranca"
	vecPayload = `{"cliente_id": "01G2451W0HFH7BPJ4AAGAHJXMZ", "referencia_intencao": "NF-a", "valor": 40895, "chave_pix_destino": "José@Ex.com\f"}`
	vecSecret  = "bobzjck2618o72o7bz!u1dtindte"
	vecKey     = "8e8c62f6cd4e1ceef29d3ea9cf182564feddbd61649ae955fc98d705df2ba3bf"
)

type runResult struct {
	code           int
	stdout, stderr string
	err            error
}

// runDerive runs `derive args...` with stdin and the given secret in the
// environment ("" leaves it unset), and checks the secret never leaks.
func runDerive(t *testing.T, secret, stdin string, args ...string) runResult {
	t.Helper()
	t.Setenv(secretEnv, secret)
	if secret == "" {
		os.Unsetenv(secretEnv)
	}
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(stdin)
	cmd := NewCmdDerive(ios, nil)
	cmd.SetArgs(args)
	cmd.SetIn(in)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	r := runResult{code: exitCode(err), stdout: out.String(), stderr: errOut.String(), err: err}
	if err != nil {
		r.stderr += err.Error()
	}
	for _, s := range []string{testSecret, vecSecret} {
		if strings.Contains(r.stdout, s) || strings.Contains(r.stderr, s) {
			t.Fatalf("secret leaked in output of %v:\nstdout: %s\nstderr: %s", args, r.stdout, r.stderr)
		}
	}
	return r
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDeriveKeyFromPayload(t *testing.T) {
	payload := writeFile(t, "p.json", vecPayload)
	r := runDerive(t, vecSecret, "", "--tenant", vecTenant, "--action", vecAction, "--payload", payload)
	if r.code != 0 || r.stdout != vecKey+"\n" {
		t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	// Same from stdin.
	r = runDerive(t, vecSecret, vecPayload, "--tenant", vecTenant, "--action", vecAction, "--payload", "-")
	if r.code != 0 || r.stdout != vecKey+"\n" {
		t.Fatalf("stdin: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestDeriveSetMatchesLibrary(t *testing.T) {
	r := runDerive(t, testSecret, "", "--tenant", "t1", "--action", "email.cobranca",
		"--set", "cliente_id=42", "--set", "referencia_intencao= NF-1 ", "--set", "template=LEMBRÉTE", "--set", "note=a=b")
	want, err := derive.DefaultSchema().Derive([]byte(testSecret), derive.Intent{Tenant: "t1", Action: "email.cobranca",
		Payload: []byte(`{"cliente_id":"42","referencia_intencao":" NF-1 ","template":"LEMBRÉTE","note":"a=b"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if r.code != 0 || strings.TrimSpace(r.stdout) != want.Key {
		t.Fatalf("code %d stdout %q want %s; stderr %q", r.code, r.stdout, want.Key, r.stderr)
	}
	r = runDerive(t, testSecret, "", "--tenant", "t1", "--action", "email.cobranca", "--set", "novalue")
	if r.code != 2 || !strings.Contains(r.stderr, "field=value") {
		t.Fatalf("bad --set: code %d stderr %q", r.code, r.stderr)
	}
	r = runDerive(t, testSecret, "", "--tenant", "t1", "--action", "email.cobranca", "--set", "a=1", "--set", "a=2")
	if r.code != 2 || !strings.Contains(r.stderr, "twice") {
		t.Fatalf("duplicate --set: code %d stderr %q", r.code, r.stderr)
	}
}

func TestDeriveJSONFormat(t *testing.T) {
	payload := writeFile(t, "p.json", `{"cliente_id": 7, "valor": "12.30", "chave_pix_destino": " José@Ex.com ", "referencia_intencao": " NF-9 ", "updated_at": "x", "message_id": "y"}`)
	r := runDerive(t, testSecret, "", "--tenant", "t1", "--action", "pix.cobranca", "--payload", payload, "--format", "json")
	if r.code != 0 {
		t.Fatalf("code %d stderr %q", r.code, r.stderr)
	}
	var got struct {
		Key     string            `json:"key"`
		Tenant  string            `json:"tenant"`
		Action  string            `json:"action"`
		Version int               `json:"version"`
		Fields  map[string]string `json:"fields"`
		Ignored []string          `json:"ignored"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	want := map[string]string{"cliente_id": "7", "valor": "1230", "chave_pix_destino": "josé@ex.com", "referencia_intencao": "NF-9"}
	if got.Tenant != "t1" || got.Action != "pix.cobranca" || got.Version != 1 || len(got.Key) != 64 ||
		len(got.Fields) != 4 || strings.Join(got.Ignored, ",") != "updated_at,message_id" {
		t.Fatalf("unexpected JSON: %s", r.stdout)
	}
	for k, v := range want {
		if got.Fields[k] != v {
			t.Errorf("fields[%s] = %q, want %q", k, got.Fields[k], v)
		}
	}
}

func TestDeriveExplain(t *testing.T) {
	payload := writeFile(t, "p.json", `{"cliente_id": "C1", "valor": 10.5, "chave_pix_destino": "(11) 91234-5678", "referencia_intencao": "NF-1\u2028", "updated_at": "2026-11-03T10:00:00Z", "message_id": "wamid.1"}`)
	r := runDerive(t, testSecret, "", "--tenant", "t1", "--action", "pix.cobranca", "--payload", payload, "--explain")
	if r.code != 0 {
		t.Fatalf("code %d stderr %q", r.code, r.stderr)
	}
	res, err := derive.DefaultSchema().Derive([]byte(testSecret), derive.Intent{Tenant: "t1", Action: "pix.cobranca", Payload: mustRead(t, payload)})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"field", "raw", "rule", "normalized", "valor", "10.5", "cents", `"1050"`,
		"chave_pix_destino", `"11912345678"`, `"(11) 91234-5678"`, "pix_key",
		string(res.Canonical), res.Key, "warning", "updated_at, message_id"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\x1b[") {
		t.Error("styled output although stdout is not a terminal")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDeriveVerify(t *testing.T) {
	payload := writeFile(t, "p.json", vecPayload)
	base := []string{"--tenant", vecTenant, "--action", vecAction, "--payload", payload}
	r := runDerive(t, vecSecret, "", append(base, "--verify", strings.ToUpper(vecKey))...)
	if r.code != 0 || !strings.Contains(r.stdout, "matches") {
		t.Fatalf("match: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	other := strings.Repeat("0", 64)
	r = runDerive(t, vecSecret, "", append(base, "--verify", other)...)
	if r.code != 1 || !strings.Contains(r.stdout, other) || !strings.Contains(r.stdout, vecKey) || !strings.Contains(r.stdout, "mismatch") {
		t.Fatalf("mismatch: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runDerive(t, vecSecret, "", append(base, "--verify", other, "--format", "json")...)
	if r.code != 1 || !strings.Contains(r.stdout, `"match":false`) || !strings.Contains(r.stdout, `"expected":"`+other) {
		t.Fatalf("json mismatch: code %d stdout %q", r.code, r.stdout)
	}
	r = runDerive(t, vecSecret, "", append(base, "--verify", "abc")...)
	if r.code != 2 {
		t.Fatalf("bad hex: code %d stderr %q", r.code, r.stderr)
	}
}

func TestDeriveSecretHandling(t *testing.T) {
	payload := writeFile(t, "p.json", vecPayload)
	base := []string{"--tenant", vecTenant, "--action", vecAction, "--payload", payload}

	r := runDerive(t, "", "", base...)
	if r.code != 2 || !strings.Contains(r.stderr, secretEnv) {
		t.Fatalf("no secret: code %d stderr %q", r.code, r.stderr)
	}
	// A key file wins over the environment; one trailing newline is trimmed.
	keyFile := writeFile(t, "key", vecSecret+"\n")
	r = runDerive(t, testSecret, "", append(base, "--hmac-key-file", keyFile)...)
	if r.code != 0 || strings.TrimSpace(r.stdout) != vecKey {
		t.Fatalf("key file: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	crlf := writeFile(t, "key-crlf", vecSecret+"\r\n")
	r = runDerive(t, "", "", append(base, "--hmac-key-file", crlf)...)
	if r.code != 0 || strings.TrimSpace(r.stdout) != vecKey {
		t.Fatalf("CRLF key file: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	// Only one newline is trimmed: a second one is part of the secret.
	r = runDerive(t, "", "", append(base, "--hmac-key-file", writeFile(t, "key2", vecSecret+"\n\n"))...)
	if r.code != 0 || strings.TrimSpace(r.stdout) == vecKey {
		t.Fatalf("two newlines: code %d stdout %q", r.code, r.stdout)
	}
	r = runDerive(t, "", "", append(base, "--hmac-key-file", writeFile(t, "empty", "\n"))...)
	if r.code != 2 || !strings.Contains(r.stderr, "empty") {
		t.Fatalf("empty key file: code %d stderr %q", r.code, r.stderr)
	}
	r = runDerive(t, "", "", append(base, "--hmac-key-file", filepath.Join(t.TempDir(), "missing"))...)
	if r.code != 2 {
		t.Fatalf("missing key file: code %d stderr %q", r.code, r.stderr)
	}
	// The secret is never printed, even in the explanation or on failure.
	r = runDerive(t, testSecret, "", append(base, "--explain", "--format", "json")...)
	if r.code != 0 {
		t.Fatalf("explain json: code %d stderr %q", r.code, r.stderr)
	}
	r = runDerive(t, testSecret, "", "--tenant", testSecret, "--action", vecAction, "--set", "x=1")
	if r.code != 2 {
		t.Fatalf("failed derivation: code %d stderr %q", r.code, r.stderr)
	}
	// There is no flag that takes the secret itself.
	r = runDerive(t, "", "", append(base, "--hmac-key", testSecret)...)
	if r.code != 2 {
		t.Fatalf("--hmac-key accepted: code %d", r.code)
	}
	// A secret pasted as an argument is refused without being echoed
	// (runDerive fails the test if it shows up).
	r = runDerive(t, "", "", append(base, testSecret)...)
	if r.code != 2 || !strings.Contains(r.stderr, "no arguments") {
		t.Fatalf("positional secret: code %d stderr %q", r.code, r.stderr)
	}
	// An explicit empty --hmac-key-file is an error, not a silent fallback
	// to the environment.
	for _, args := range [][]string{append(base, "--hmac-key-file="), {"--batch", "--hmac-key-file="}} {
		r = runDerive(t, testSecret, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, "--hmac-key-file: empty path") {
			t.Fatalf("%v: code %d stderr %q", args, r.code, r.stderr)
		}
	}
}

// TestDeriveFailures: a value the rules refuse is exit 1 (the intent
// cannot be keyed); input that is not an intent at all is exit 2, bad input
// as for every command. Both are one line naming the culprit.
func TestDeriveFailures(t *testing.T) {
	tests := []struct {
		payload string
		action  string
		code    int
		want    string
	}{
		{`{"cliente_id": "C", "valor": "10.005", "chave_pix_destino": "k", "referencia_intencao": "r"}`, "pix.cobranca", 1, `field "valor" (cents)`},
		{`{"cliente_id": 2.0, "valor": 1, "chave_pix_destino": "k", "referencia_intencao": "r"}`, "pix.cobranca", 1, `field "cliente_id" (text)`},
		// JSON the parser refuses on purpose is still invalid JSON: exit 2.
		{`{"a": "\ud800"}`, "pix.cobranca", 2, "invalid JSON at byte 7: lone surrogate"},
		{`{"cliente_id": "C", "cliente_id": "D"}`, "pix.cobranca", 2, "invalid JSON at byte 20: duplicate member"},
		{"{\"a\": \"\xff\"}", "pix.cobranca", 2, "invalid JSON at byte 7: invalid UTF-8"},
		{strings.Repeat("[", 600), "pix.cobranca", 2, "invalid JSON at byte 512: nesting too deep"},
		{`{"a": 1}` + strings.Repeat(" ", 10) + `{`, "pix.cobranca", 2, "invalid JSON"},
		{`{"cliente_id": "C", "valor": 1, "referencia_intencao": "r"}`, "pix.cobranca", 2, `"chave_pix_destino"`},
		{`{"cliente_id": "C"}`, "pix.estorno", 2, `unknown action "pix.estorno"`},
		{`[1]`, "pix.cobranca", 2, "want a JSON object"},
		{`{"cliente_id": `, "pix.cobranca", 2, "invalid JSON at byte"},
		{``, "pix.cobranca", 2, "invalid JSON at byte 0"},
	}
	for _, tt := range tests {
		r := runDerive(t, testSecret, tt.payload, "--tenant", "t", "--action", tt.action, "--payload", "-")
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) || strings.Contains(r.stderr, "\n") || r.stdout != "" {
			t.Errorf("%s: code %d stdout %q stderr %q, want exit %d mentioning %q", tt.payload, r.code, r.stdout, r.stderr, tt.code, tt.want)
		}
	}
}

func TestDeriveUsageErrors(t *testing.T) {
	payload := writeFile(t, "p.json", vecPayload)
	tests := [][]string{
		{"--action", vecAction, "--payload", payload},
		{"--tenant", "t", "--payload", payload},
		{"--tenant", "t", "--action", vecAction},
		{"--tenant", "t", "--action", vecAction, "--payload", payload, "--set", "a=b"},
		{"--tenant", "t", "--action", vecAction, "--payload", payload, "--format", "xml"},
		{"--tenant", "t", "--action", vecAction, "--payload", filepath.Join(t.TempDir(), "nope.json")},
		{"--batch", "--tenant", "t"},
		{"--batch", "--explain"},
		{"--no-such-flag"},
		{"extra-arg"},
	}
	for _, args := range tests {
		if r := runDerive(t, testSecret, "", args...); r.code != 2 {
			t.Errorf("%v: code %d, want 2 (stderr %q)", args, r.code, r.stderr)
		}
	}
	// An explicit empty action is an unknown action (exit 2), as a batch
	// line with "action": "" is, not reported as a missing flag.
	if r := runDerive(t, testSecret, "", "--tenant", "t", "--action", "", "--payload", payload); r.code != 2 || !strings.Contains(r.stderr, `unknown action ""`) {
		t.Errorf("empty action: code %d stderr %q", r.code, r.stderr)
	}
	// An empty tenant is allowed when given explicitly, as the reference allows it.
	if r := runDerive(t, testSecret, "", "--tenant", "", "--action", vecAction, "--payload", payload); r.code != 0 {
		t.Errorf("empty tenant: code %d stderr %q", r.code, r.stderr)
	}
}

func TestDeriveBatch(t *testing.T) {
	huge := strings.Repeat("x", 5<<20) // a 5 MiB ignored field: no line cap
	lines := []string{
		`{"id": 1, "tenant": "` + vecTenant + `", "action": "pix.cobranca", "payload": ` + vecPayload + `}`,
		`{"id": "two", "tenant": "t", "action": "pix.cobranca", "payload": {"cliente_id": "C", "valor": "10.005", "chave_pix_destino": "k", "referencia_intencao": "r"}}`,
		`not json`,
		``,
		`{"tenant": "` + vecTenant + `", "action": "pix.cobranca", "payload": ` + mustJSON(t, vecPayload) + `}`,
		`{"id": [3], "tenant": "t", "action": "nope", "payload": {}}`,
		`{"id": 4, "tenant": "` + vecTenant + `", "action": "pix.cobranca", "payload": {"big": "` + huge + `", ` + vecPayload[1:] + `}`,
		`{"extra": 1, "id": 5, "tenant": "t", "action": "pix.cobranca", "payload": {}}`,
	}
	input := strings.Join(lines, "\n") + "\r\n"
	for _, workers := range []string{"1", "2", "3"} {
		r := runDerive(t, vecSecret, input, "--batch", "--workers", workers)
		if r.code != 1 || !strings.Contains(r.stderr, "5 of 8 lines failed") {
			t.Fatalf("workers %s: code %d stderr %q", workers, r.code, r.stderr)
		}
		out := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		want := []string{
			`{"id":1,"key":"` + vecKey + `"}`,
			`{"id":"two","error":"line 2: field \"valor\" (cents): `,
			`{"error":"line 3: invalid JSON`,
			`{"error":"line 4: blank line`,
			`{"key":"` + vecKey + `"}`,
			`{"id":[3],"error":"line 6: unknown action \"nope\"`,
			`{"id":4,"key":"` + vecKey + `"}`,
			`{"id":5,"error":"line 8: unknown key \"extra\"`,
		}
		if len(out) != len(want) {
			t.Fatalf("workers %s: %d output lines, want %d:\n%s", workers, len(out), len(want), r.stdout)
		}
		for i := range want {
			if !strings.HasPrefix(out[i], want[i]) || !json.Valid([]byte(out[i])) {
				t.Errorf("workers %s line %d: %s\nwant prefix %s", workers, i+1, out[i], want[i])
			}
		}
	}
	// All lines good: exit 0; empty input: no output, exit 0.
	r := runDerive(t, vecSecret, lines[0]+"\n"+lines[4], "--batch")
	if r.code != 0 || strings.Count(r.stdout, vecKey) != 2 {
		t.Fatalf("good batch: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runDerive(t, vecSecret, "", "--batch"); r.code != 0 || r.stdout != "" {
		t.Fatalf("empty batch: code %d stdout %q", r.code, r.stdout)
	}
	if r := runDerive(t, "", lines[0], "--batch"); r.code != 2 {
		t.Fatalf("batch without secret: code %d", r.code)
	}
}

func mustJSON(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDeriveSchemaFlags(t *testing.T) {
	r := runDerive(t, "", "", "--print-schema")
	if r.code != 0 {
		t.Fatalf("print-schema: code %d stderr %q", r.code, r.stderr)
	}
	s, err := derive.ParseSchema([]byte(r.stdout))
	if err != nil {
		t.Fatalf("printed schema does not parse: %v\n%s", err, r.stdout)
	}
	if !bytes.Equal(s.YAML(), derive.DefaultSchema().YAML()) {
		t.Fatalf("printed schema differs from the default:\n%s", r.stdout)
	}

	custom := writeFile(t, "s.yaml", "version: 2\nactions:\n  refund:\n    fields:\n      - name: order\n        rule: trim\n")
	r = runDerive(t, testSecret, "", "--schema", custom, "--tenant", "t", "--action", "refund", "--set", "order= A1 ", "--format", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"version":2`) || !strings.Contains(r.stdout, `"order":"A1"`) {
		t.Fatalf("custom schema: code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	bad := writeFile(t, "bad.yaml", "version: 1\nactions:\n  refund:\n    fields:\n      - name: order\n        rule: soundex\n")
	r = runDerive(t, testSecret, "", "--schema", bad, "--tenant", "t", "--action", "refund", "--set", "order=1")
	if r.code != 2 || !strings.Contains(r.stderr, `"soundex"`) {
		t.Fatalf("unknown rule: code %d stderr %q", r.code, r.stderr)
	}
}

// A blank secret (only whitespace) is a variable or a file filled by
// mistake, not a secret: one line, exit 2, from the environment and from
// --hmac-key-file alike.
func TestDeriveRefusesABlankSecret(t *testing.T) {
	payload := writeFile(t, "p.json", vecPayload)
	base := []string{"--tenant", vecTenant, "--action", vecAction, "--payload", payload}
	for _, blank := range []string{" ", "\t", " \n ", "\r\n"} {
		r := runDerive(t, blank, "", base...)
		if r.code != 2 || !strings.Contains(r.stderr, secretEnv+" is blank") || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 || r.stdout != "" {
			t.Errorf("environment %q: code %d stdout %q stderr %q", blank, r.code, r.stdout, r.stderr)
		}
	}
	for _, blank := range []string{"\n\n", "\n\n\n", "  \n", " \t\r\n\r\n", "\n \n"} {
		key := writeFile(t, "key", blank)
		r := runDerive(t, testSecret, "", append(base, "--hmac-key-file", key)...)
		if r.code != 2 || !strings.Contains(r.stderr, "only whitespace") || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 || r.stdout != "" {
			t.Errorf("key file %q: code %d stdout %q stderr %q", blank, r.code, r.stdout, r.stderr)
		}
	}
}

// A key file that its group or others can read gets one line of warning;
// the key is still derived.
func TestDeriveWarnsAboutAReadableKeyFile(t *testing.T) {
	payload := writeFile(t, "p.json", vecPayload)
	base := []string{"--tenant", vecTenant, "--action", vecAction, "--payload", payload}
	for mode, warns := range map[os.FileMode]bool{0o600: false, 0o400: false, 0o640: true, 0o644: true, 0o604: true} {
		key := writeFile(t, "key", vecSecret+"\n")
		if err := os.Chmod(key, mode); err != nil {
			t.Fatal(err)
		}
		r := runDerive(t, "", "", append(base, "--hmac-key-file", key)...)
		if r.code != 0 || strings.TrimSpace(r.stdout) != vecKey {
			t.Fatalf("mode %04o: code %d stdout %q stderr %q", mode, r.code, r.stdout, r.stderr)
		}
		warning := strings.TrimSpace(r.stderr)
		switch {
		case warns && (!strings.HasPrefix(warning, "warning: --hmac-key-file is readable by its group or others") || strings.Contains(warning, "\n") || strings.Contains(warning, key)):
			t.Errorf("mode %04o: want one warning line without the path, got %q", mode, r.stderr)
		case !warns && warning != "":
			t.Errorf("mode %04o: want no warning, got %q", mode, r.stderr)
		}
	}
}
