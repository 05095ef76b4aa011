package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/normcheck"
)

const (
	normcheckPayload = "../testdata/normcheck/payload.json"
	normcheckSchema  = "../testdata/normcheck/schema-v2.yaml"
)

type normcheckResult struct {
	code           int
	stdout, stderr string
}

// runNormcheck runs `idemcheck normcheck args...` through the root command,
// as main does, and returns the exit code and both streams.
func runNormcheck(t *testing.T, stdin string, args ...string) normcheckResult {
	t.Helper()
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(stdin)
	root := NewRootCmd("test", ios)
	root.SetArgs(append([]string{"normcheck"}, args...))
	err := root.Execute()
	if err != nil {
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Err != nil {
			errOut.WriteString("idemcheck: " + oneLine(err.Error()) + "\n")
		}
	}
	return normcheckResult{code: exitCode(err), stdout: out.String(), stderr: errOut.String()}
}

func (r normcheckResult) expect(t *testing.T, code int, stdoutHas ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
	for _, s := range stdoutHas {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
		}
	}
}

func normcheckJSON(t *testing.T, r normcheckResult) normcheck.Report {
	t.Helper()
	var rep normcheck.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("--format json output is not JSON: %v\n%s", err, r.stdout)
	}
	return rep
}

func TestNormcheckPublishedVectors(t *testing.T) {
	for _, tc := range []struct {
		typ, value string
		code       int
		has        string
	}{
		{"cpf", "390.533.447-05", 0, "spellings normalize to"},
		{"cpf", "248.438.034-80", 0, `"248 438 034 80"`},
		{"cpf", "111.444.777-35", 0, `"111.444.777-35"`},
		{"cpf", "231.002.999-00", 1, "invalid CPF: check digits 00"},
		{"cpf", "248.438.034-08", 1, "invalid CPF: check digits 08"},
		{"cpf", "111.111.111-11", 1, "invalid CPF: all digits are equal"},
		{"cnpj", "16.727.230/0001-97", 0, `"16 727 230 0001 97"`},
		{"cnpj", "16.727.230/0001-98", 1, "invalid CNPJ: check digits 98"},
		{"cnpj", "12.ABC.345/01DE-35", 0, `"12.abc.345/01de-35"`},
		{"cnpj", "12.ABC.345/01DE-34", 1, "invalid CNPJ: check digits 34"},
		{"cnpj", "12.aBc.345/01dE-35", 0, `"12ABC34501DE35"`},
		{"phone", "98765-4321", 1, "no area code"},
		{"email", "Fulano@Example.COM", 0, `"FULANO@EXAMPLE.COM"`},
		{"email", "fulano@", 1, "invalid e-mail: nothing after the @"},
		{"evp", "123E4567-E89B-12D3-A456-426614174000", 0, `"123e4567e89b12d3a456426614174000"`},
		{"evp", "123e4567-e89b-12d3-a456", 1, "invalid EVP"},
	} {
		t.Run(tc.typ+" "+tc.value, func(t *testing.T) {
			runNormcheck(t, "", "--type", tc.typ, tc.value).expect(t, tc.code, tc.has)
		})
	}
}

// TestNormcheckPixKeyPhoneLimit: the v1 pix_key rule keeps a phone's digits
// as written, so +55 and the national form give different keys; phone_e164
// and pix_key_typed (schema v2) fix it.
func TestNormcheckPixKeyPhoneLimit(t *testing.T) {
	r := runNormcheck(t, "", "--type", "phone", "+55 (11) 98765-4321")
	r.expect(t, 1, "rule pix_key", "spellings normalize differently", `"11987654321"`, `"(11) 98765-4321"`, `"011 98765-4321"`)
	if !strings.Contains(r.stderr, "phone_e164") {
		t.Errorf("no hint towards phone_e164 on stderr: %q", r.stderr)
	}
	rep := normcheckJSON(t, runNormcheck(t, "", "--type", "phone", "--format", "json", "11987654321"))
	if rep.OK || rep.Values[0].Reference != "11987654321" || !slices.Contains(rep.Values[0].Different, "+5511987654321") {
		t.Errorf("json report: %+v", rep)
	}

	for _, args := range [][]string{
		{"--rule", "phone_e164"},
		{"--rule", "pix_key_typed"},
		{"--schema", normcheckSchema, "--action", "pix.cobranca", "--field", "chave_pix_destino"},
		{"--schema", normcheckSchema, "--field", "telefone"}, // the only action with it
	} {
		args := append(args, "--type", "phone", "+55 (11) 98765-4321", "(21) 3333-4444", "011 98765-4321")
		runNormcheck(t, "", args...).expect(t, 0, `normalize to "+5511987654321"`, `normalize to "+552133334444"`)
	}
}

func TestNormcheckSpellingsShown(t *testing.T) {
	r := runNormcheck(t, "", "--type", "phone", "--rule", "phone_e164", "(11) 98765-4321")
	r.expect(t, 0, `"+55 (11) 98765-4321"`, `"+5511987654321"`, `"5511987654321"`,
		`"(11) 98765-4321"`, `"11987654321"`, `"011 98765-4321"`, `"\u00a0+5511987654321\u00a0"`, `"\t+5511987654321"`)

	runNormcheck(t, "", "--type", "email", "José@Exemplo.com.br").expect(t, 0, `"jose\u0301@exemplo.com.br"`)
	rep := normcheckJSON(t, runNormcheck(t, "", "--type", "email", "--format", "json", "José@Exemplo.com.br"))
	if !rep.OK || rep.Values[0].Reference != "josé@exemplo.com.br" {
		t.Fatalf("report %+v", rep)
	}
	var nfd bool
	for _, s := range rep.Values[0].Spellings {
		nfd = nfd || strings.Contains(s.Spelling, "e\u0301")
	}
	if !nfd {
		t.Error("no NFD spelling for an accented e-mail")
	}
}

func TestNormcheckJSONShape(t *testing.T) {
	r := runNormcheck(t, "", "--type", "cpf", "--format", "json", "111.444.777-35", "111.111.111-11")
	if r.code != 1 {
		t.Fatalf("exit %d with an invalid value", r.code)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	norm := doc["normalizer"].(map[string]any)
	if doc["type"] != "cpf" || doc["ok"] != false || norm["rule"] != "pix_key" || norm["field"] != "chave_pix_destino" || norm["schema_version"] != 1.0 {
		t.Errorf("top level: %v", doc)
	}
	values := doc["values"].([]any)
	first, second := values[0].(map[string]any), values[1].(map[string]any)
	if first["valid"] != true || first["canonical"] != "11144477735" || first["reference"] != "11144477735" || first["agree"] != true {
		t.Errorf("valid value: %v", first)
	}
	sp := first["spellings"].([]any)[0].(map[string]any)
	for _, k := range []string{"form", "spelling", "normalized", "same"} {
		if _, ok := sp[k]; !ok {
			t.Errorf("spelling lacks %q: %v", k, sp)
		}
	}
	if second["valid"] != false || !strings.Contains(second["error"].(string), "all digits are equal") {
		t.Errorf("invalid value: %v", second)
	}
}

func TestNormcheckUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		has  string
	}{
		{[]string{"111.444.777-35"}, "--type is required"},
		{[]string{"--type", "cpf"}, "at least one VALUE"},
		{[]string{"--type", "rg", "1"}, `unknown key type "rg"`},
		{[]string{"--type", "cpf", "--format", "xml", "1"}, "--format"},
		{[]string{"--type", "cpf", "--rule", "nope", "11144477735"}, `unknown rule "nope"`},
		{[]string{"--type", "cpf", "--rule", "cpf", "--schema", normcheckSchema, "1"}, "--rule cannot be combined"},
		{[]string{"--type", "cpf", "--schema", normcheckSchema, "11144477735"}, "--schema needs --field"},
		{[]string{"--type", "cpf", "--schema", "missing.yaml", "--field", "x", "11144477735"}, "missing.yaml"},
		{[]string{"--type", "cpf", "--schema", normcheckSchema, "--action", "nope", "--field", "x", "11144477735"}, `no action "nope"`},
		{[]string{"--type", "cpf", "--schema", normcheckSchema, "--field", "cliente_id", "11144477735"}, "several actions"},
		{[]string{"--type", "cpf", "--action", "pix.cobranca", "--field", "nope", "11144477735"}, `has no field "nope"`},
		{[]string{"--type", "cpf", "--exec", "cat", "11144477735"}, "--exec needs --payload"},
		{[]string{"--type", "cpf", "--exec", "cat", "--rule", "cpf", "--payload", normcheckPayload, "--field", "chave_pix_destino", "1"}, "drop --rule"},
		{[]string{"--type", "cpf", "--payload", normcheckPayload, "11144477735"}, "only apply with --exec"},
		{[]string{"--type", "cpf", "--exec", "cat", "--payload", "nope.json", "--field", "f", "11144477735"}, "nope.json"},
		{[]string{"--type", "cpf", "--exec", "cat", "--payload", normcheckPayload, "--field", "nope", "11144477735"}, `no field "nope"`},
		{[]string{"--type", "cpf", "--bogus", "1"}, "unknown flag"},
		{[]string{"--type", "cpf", "--exec", "", "--payload", normcheckPayload, "--field", "chave_pix_destino", "11144477735"}, "--exec: empty command"},
		{[]string{"--type", "cpf", "--rule", "", "11144477735"}, "--rule: empty rule name"},
	} {
		r := runNormcheck(t, "", tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.has) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, tc.has)
		}
		if strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%v: error is not one line: %q", tc.args, r.stderr)
		}
	}
}

func TestNormcheckConstructorOnlyParsesFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *NormcheckOptions
	c := NewCmdNormcheck(ios, func(o *NormcheckOptions) error { got = o; return nil })
	c.SetArgs([]string{"--type", "phone", "--rule", "phone_e164", "--format", "json", "a", "b"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Type != "phone" || got.Rule != "phone_e164" || got.Format != "json" || len(got.Values) != 2 || got.Timeout != 10*time.Second {
		t.Errorf("options %+v", got)
	}
}

func TestNormcheckStyledOnlyOnTerminal(t *testing.T) {
	for _, tty := range []bool{false, true} {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tty)
		opts := &NormcheckOptions{IO: ios, Type: "cpf", Values: []string{"111.444.777-35"}, Format: "text", Timeout: time.Second}
		if err := normcheckRun(opts); err != nil {
			t.Fatal(err)
		}
		if styled := strings.Contains(out.String(), "\x1b["); styled != tty {
			t.Errorf("tty=%v: styled=%v", tty, styled)
		}
	}
}

func execArgs(command, typ string, values ...string) []string {
	return append([]string{"--type", typ, "--exec", command, "--payload", normcheckPayload,
		"--field", "chave_pix_destino", "--timeout", "20s"}, values...)
}

func script(name string) string {
	return "sh " + filepath.Join("..", "testdata", "normcheck", name)
}

func TestNormcheckExecCorrectKeyFunction(t *testing.T) {
	t.Parallel()
	r := runNormcheck(t, "", execArgs(script("key-correct.sh"), "cpf", "111.444.777-35", "390.533.447-05")...)
	r.expect(t, 0, "spellings normalize to", "repeat: the same input gives the same key", "other_value: another identifier gives another key")
	runNormcheck(t, "", execArgs(script("key-correct.sh"), "cnpj", "12.ABC.345/01DE-35")...).expect(t, 0, `"12.abc.345/01de-35"`)
}

func TestNormcheckExecKeyFunctionThatKeepsDashes(t *testing.T) {
	t.Parallel()
	r := runNormcheck(t, "", append(execArgs(script("key-strips-dots.sh"), "cpf", "111.444.777-35"), "--format", "json")...)
	rep := normcheckJSON(t, r)
	if r.code != 1 || rep.OK {
		t.Fatalf("exit %d; the broken function passed:\n%s", r.code, r.stdout)
	}
	v := rep.Values[0]
	for _, want := range []string{"11144477735", "111-444-777-35", "111 444 777 35"} {
		if !slices.Contains(v.Different, want) {
			t.Errorf("%q not named as different: %v", want, v.Different)
		}
	}
	if slices.Contains(v.Different, "111444777-35") {
		t.Error("111444777-35 keeps the dash like the value as given and should agree")
	}
}

// TestNormcheckExecPayloadReachesTheCommand: the command gets the payload
// with only the field replaced — other members keep their exact text.
func TestNormcheckExecPayloadReachesTheCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	payload := filepath.Join(dir, "p.json")
	os.WriteFile(payload, []byte(`{"valor": 1.50, "chave_pix_destino": "x", "nome": "<Zé & Cia>"}`), 0o644)
	seen := filepath.Join(dir, "seen")
	cmd := "tee -a " + seen + " | cksum"
	r := runNormcheck(t, "", "--type", "cpf", "--exec", cmd, "--payload", payload, "--field", "chave_pix_destino", "11144477735")
	r.expect(t, 1) // cksum of the whole payload: spellings differ
	data, _ := os.ReadFile(seen)
	first := strings.SplitN(string(data), "\n", 2)[0]
	if first != `{"valor": 1.50, "chave_pix_destino": "11144477735", "nome": "<Zé & Cia>"}` {
		t.Errorf("payload sent: %s", first)
	}
	if !strings.Contains(string(data), `"chave_pix_destino": "\t11144477735\r\n"`) {
		t.Errorf("whitespace spellings not JSON-escaped:\n%s", data)
	}

	// --payload - reads the payload from stdin.
	r = runNormcheck(t, `{"chave_pix_destino": ""}`, "--type", "cpf", "--exec", script("key-correct.sh"), "--payload", "-", "--field", "chave_pix_destino", "11144477735")
	r.expect(t, 0)
}

func TestNormcheckExecCommandFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, command, has string
	}{
		{"exit status", "cat >/dev/null; echo first >&2; echo 'cannot reach vault' >&2; exit 3", "exit status 3; stderr: first cannot reach vault"},
		{"no output", "cat >/dev/null; echo 'warming up' >&2", "printed no key on stdout; stderr: warming up"},
		{"not found", "no-such-key-command-xyz", "not found"},
		{"flood", "cat >/dev/null; yes key | head -c 200000", "printed more than 65536 bytes"},
		{"background child holds stdout", "cat >/dev/null; echo key; sleep 30 &", "left a background process holding its stdout"},
	} {
		r := runNormcheck(t, "", execArgs(tc.command, "cpf", "11144477735")...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.has) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", tc.name, r.code, r.stderr, tc.has)
		}
	}
	long := "cat >/dev/null; i=0; while [ $i -lt 200 ]; do echo noise-$i >&2; i=$((i+1)); done; echo the-real-cause >&2; exit 1"
	r := runNormcheck(t, "", execArgs(long, "cpf", "11144477735")...)
	if r.code != 2 || !strings.Contains(r.stderr, "the-real-cause") || strings.Contains(r.stderr, "noise-0 ") || len(r.stderr) > 700 {
		t.Errorf("stderr tail: %q", r.stderr)
	}
}

// TestNormcheckExecTimeoutKillsTheProcessGroup: a hanging command and the
// children it started are killed; the error says so.
func TestNormcheckExecTimeoutKillsTheProcessGroup(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	pids := filepath.Join(t.TempDir(), "pids")
	cmd := "echo $$ > " + pids + "; sleep 300 & echo $! >> " + pids + "; echo started >&2; wait"
	args := []string{"--type", "cpf", "--exec", cmd, "--payload", normcheckPayload, "--field", "chave_pix_destino", "--timeout", "300ms", "11144477735"}
	r := runNormcheck(t, "", args...)
	if r.code != 2 || !strings.Contains(r.stderr, "did not finish within 300ms") || !strings.Contains(r.stderr, "started") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	data, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		// SIGKILL is delivered asynchronously: give the kernel a moment.
		for i := 0; i < 100 && alive(pid); i++ {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("process %d survived the timeout", pid)
		}
	}
}

// alive reports whether pid runs (a zombie waiting for its reaper is dead).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// TestNormcheckExecAudits: agreement proves nothing when the key is drawn
// inside the attempt, or ignores the field.
func TestNormcheckExecAudits(t *testing.T) {
	t.Parallel()
	r := runNormcheck(t, "", execArgs("cat >/dev/null; echo $$", "cpf", "11144477735")...)
	r.expect(t, 1, "repeat: the same input gave two keys")
	r = runNormcheck(t, "", execArgs("cat >/dev/null; echo constant-key", "cpf", "11144477735")...)
	r.expect(t, 1, "other_value: another identifier gives the same key", "spellings normalize to")
}

// rawControl finds a character that would act on a terminal: a C0 or C1
// control other than newline, DEL, or a bidirectional override.
func rawControl(s string) (rune, bool) {
	for _, r := range s {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return r, true
		}
	}
	return 0, false
}

// Terminal escapes in normcheck's input (a value, a schema path, a payload
// path, a field name) are shown as escapes in its header, tables and
// errors, never written raw.
func TestNormcheckShowsEscapesInItsInput(t *testing.T) {
	const hostile = "\x1b]0;pwned\a\x1b[2J\u009b31m\u202e"
	dir := t.TempDir()
	schema := filepath.Join(dir, "schema"+hostile+".yaml")
	payload := filepath.Join(dir, "payload"+hostile+".json")
	data, err := os.ReadFile(normcheckSchema)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(schema, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(payload, []byte(`{"chave_pix_destino": "x", "other": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"valid value":        {"--type", "email", "--rule", "trim_lower", "a@example.com" + hostile},
		"invalid value":      {"--type", "cpf", "111.444.777-35" + hostile},
		"schema path":        {"--type", "cpf", "--schema", schema, "--field", "cliente_id", "--action", "pix.cobranca", "111.444.777-35"},
		"payload path":       {"--type", "cpf", "--exec", "cat >/dev/null; echo k", "--payload", payload, "--field", "chave_pix_destino", "111.444.777-35"},
		"field name":         {"--type", "cpf", "--exec", "cat >/dev/null; echo k", "--payload", payload, "--field", "f" + hostile, "111.444.777-35"},
		"exec command":       {"--type", "cpf", "--exec", "cat >/dev/null; echo k #" + hostile, "--payload", payload, "--field", "chave_pix_destino", "111.444.777-35"},
		"key command output": {"--type", "cpf", "--exec", `cat >/dev/null; printf 'k\033[31m'`, "--payload", payload, "--field", "chave_pix_destino", "111.444.777-35"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			r := runNormcheck(t, "", args...)
			if r.stdout+r.stderr == "" {
				t.Fatalf("exit %d and no output", r.code)
			}
			if c, raw := rawControl(r.stdout + r.stderr); raw {
				t.Errorf("raw %U in the output (exit %d):\nstdout: %q\nstderr: %q", c, r.code, r.stdout, r.stderr)
			}
			if name != "key command output" && !strings.Contains(r.stdout+r.stderr, `\x1b`) {
				t.Errorf("the escape is not shown as \\x1b (exit %d):\nstdout: %q\nstderr: %q", r.code, r.stdout, r.stderr)
			}
		})
	}
}
