package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wrongPlace is one way of pasting the secret where it does not belong.
type wrongPlace struct {
	name string
	inv  invocation
	db   bool // needs IDEMCHECK_TEST_DATABASE
}

// wrongPlaces are the 31 cases of issue 21: the 9 the fault battery found
// (the first 9) and 22 more, over every command, flag kind, error path and
// format. The secret is in the environment or in the key file the
// arguments name; it is pasted as a flag value, a path, a JSON member name
// or value, a handler or --exec command.
func wrongPlaces(t *testing.T, dsn string) []wrongPlace {
	t.Helper()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	if err := os.WriteFile(keyFile, []byte(canary+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"IDEMPOTENCY_HMAC_KEY=" + canary}
	intent := filepath.Join(repoRoot, "examples/derive/intent.json")
	derive := func(args ...string) []string {
		return append([]string{"derive", "--tenant", "acme", "--action", "pix.cobranca"}, args...)
	}
	withKeyFile := func(args ...string) []string {
		return append(args, "--hmac-key-file", keyFile)
	}
	batch := func(line string) invocation {
		return invocation{args: []string{"derive", "--batch"}, env: env, stdin: line + "\n"}
	}
	sh := filepath.Join(repoRoot, "testdata/restart/sh")
	restart := func(handler string, args ...string) []string {
		return append([]string{"restart-test", "--handler", handler,
			"--setup", filepath.Join(sh, "setup.sql"), "--message", filepath.Join(repoRoot, "testdata/restart/message.json"),
			"--dsn", dsn, "--kill-at", "none", "--max-attempts", "1", "--timeout", "20s"}, args...)
	}
	normcheckExec := func(cmd string, args ...string) []string {
		return append([]string{"normcheck", "--type", "cpf", "--exec", cmd,
			"--payload", filepath.Join(repoRoot, "testdata/normcheck/payload.json"), "--field", "chave_pix_destino"}, args...)
	}
	module := filepath.Join(repoRoot, "examples/demo")
	return []wrongPlace{
		// The 9 of the battery.
		{name: "-kSECRET", inv: invocation{args: []string{"derive", "-k" + canary}, env: env}},
		{name: "--set SECRET", inv: invocation{args: derive("--set", canary), env: env}},
		{name: "--set =SECRET", inv: invocation{args: derive("--set", "="+canary), env: env}},
		{name: "--payload SECRET", inv: invocation{args: derive("--payload", canary), env: env}},
		{name: "--schema SECRET", inv: invocation{args: derive("--payload", intent, "--schema", canary), env: env}},
		{name: "--action SECRET", inv: invocation{args: []string{"derive", "--tenant", "acme", "--action", canary, "--payload", intent}, env: env}},
		{name: "--format SECRET", inv: invocation{args: derive("--payload", intent, "--format", canary), env: env}},
		{name: "--batch member name", inv: batch(`{"tenant": "acme", "action": "pix.cobranca", "payload": {}, "` + canary + `": 1}`)},
		{name: "--handler IDEMPOTENCY_HMAC_KEY=SECRET in the header", db: true,
			inv: invocation{args: restart("IDEMPOTENCY_HMAC_KEY=" + canary + " sh " + filepath.Join(sh, "intent.sh")), env: env}},

		// derive: other flags, the key file, JSON output, values echoed.
		{name: "-kSECRET, secret in the key file", inv: invocation{args: withKeyFile("derive", "-k"+canary)}},
		{name: "--action SECRET, secret in the key file", inv: invocation{args: withKeyFile("derive", "--tenant", "acme", "--action", canary, "--payload", intent)}},
		{name: "--tenant SECRET --format json", inv: invocation{args: []string{"derive", "--tenant", canary, "--action", "pix.cobranca", "--payload", intent, "--format", "json"}, env: env}},
		{name: "--set field=SECRET --explain", inv: invocation{args: derive("--set", "cliente_id="+canary, "--set", "valor=1", "--set", "chave_pix_destino=a@b.c", "--set", "referencia_intencao=r", "--explain"), env: env}},
		{name: "--set SECRET=value (member name)", inv: invocation{args: derive("--set", canary+"=1", "--set", "valor=1"), env: env}},
		{name: "payload value in a refused field", inv: invocation{args: derive("--payload", "-"), env: env, stdin: `{"cliente_id": "c", "valor": "` + canary + `", "chave_pix_destino": "a@b.c", "referencia_intencao": "r"}`}},
		{name: "--max-input-size SECRET", inv: invocation{args: derive("--payload", intent, "--max-input-size", canary), env: env}},
		{name: "--batch id echoed back", inv: batch(`{"id": "` + canary + `", "tenant": "acme", "action": "nope", "payload": {}}`)},
		{name: "--batch invalid JSON around it", inv: batch(`{"tenant": "` + canary + `" "action"`)},

		// normcheck: values, rules, schema paths, --exec strings and output.
		{name: "normcheck VALUE SECRET", inv: invocation{args: []string{"normcheck", "--type", "cpf", canary}, env: env}},
		{name: "normcheck --format json VALUE SECRET", inv: invocation{args: []string{"normcheck", "--type", "email", "--format", "json", canary + "@example.com"}, env: env}},
		{name: "normcheck --rule SECRET", inv: invocation{args: []string{"normcheck", "--type", "cpf", "--rule", canary, "111.444.777-35"}, env: env}},
		{name: "normcheck --schema SECRET", inv: invocation{args: []string{"normcheck", "--type", "cpf", "--schema", canary, "--field", "x", "111.444.777-35"}, env: env}},
		{name: "normcheck --exec printing it", inv: invocation{args: normcheckExec("cat >/dev/null; echo "+canary, "111.444.777-35"), env: env}},
		{name: "normcheck --exec failing with it", inv: invocation{args: normcheckExec("echo "+canary+" >&2; exit 3", "--format", "json", "111.444.777-35"), env: env}},

		// lint: every format, paths, rules.
		{name: "lint --format SECRET", inv: invocation{args: []string{"lint", "--format", canary}, env: env}},
		{name: "lint --config SECRET", inv: invocation{args: []string{"lint", "--config", canary, "./examples/demo/..."}, env: env}},
		{name: "lint --explain SECRET", inv: invocation{args: []string{"lint", "--explain", canary}, env: env}},
		{name: "lint --format sarif --baseline SECRET", inv: invocation{args: []string{"lint", "--format", "sarif", "--baseline", canary, "./..."}, env: env, dir: module}},

		// restart-test: files, kill points, handler output, JSON.
		{name: "restart-test --message SECRET", inv: invocation{args: []string{"restart-test", "--handler", "true", "--message", canary}, env: env}},
		{name: "restart-test --kill-at SECRET", inv: invocation{args: []string{"restart-test", "--handler", "true", "--message", intent, "--kill-at", canary}, env: env}},
		{name: "restart-test handler printing it, json", db: true,
			inv: invocation{args: restart("echo "+canary+"; echo "+canary+" >&2; exit 1", "--format", "json"), env: env}},
	}
}

// TestSecretInTheWrongPlaceIsNeverPrinted: the secret, from the
// environment or the key file, appears in none of the 31 cases' stdout or
// stderr, whatever the command answers.
func TestSecretInTheWrongPlaceIsNeverPrinted(t *testing.T) {
	dsn := os.Getenv("IDEMCHECK_TEST_DATABASE")
	cases := wrongPlaces(t, dsn)
	if len(cases) != 31 {
		t.Fatalf("%d cases, want the 31 of issue 21", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.db && dsn == "" {
				t.Skip("IDEMCHECK_TEST_DATABASE is not set: restart-test needs a real PostgreSQL")
			}
			if !c.db {
				t.Parallel()
			}
			r := c.inv.run(t)
			if strings.Contains(strings.ToLower(r.all()), "c4nary") {
				t.Errorf("the secret is printed (exit %d):\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			if r.all() == "" {
				t.Errorf("exit %d and no output at all: nothing was checked", r.code)
			}
		})
	}
}
