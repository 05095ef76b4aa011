package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every subcommand, in every format, exits 2 with one line when its
// standard output cannot be written (here a full disk: /dev/full).
func TestFullStdoutIsExit2(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	secret := []string{"IDEMPOTENCY_HMAC_KEY=clitest-secret"}
	intent := filepath.Join(repoRoot, "examples/derive/intent.json")
	derive := []string{"derive", "--tenant", "acme", "--action", "pix.cobranca", "--payload", intent}
	normcheck := []string{"normcheck", "--type", "cpf", "111.444.777-35"}
	batch, err := os.ReadFile(filepath.Join(repoRoot, "examples/derive/intents.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// A module without imports: go vet has no dependency to analyze with a
	// vet tool it may not have seen (the binary is new when the sources are).
	module := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/tiny\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n",
	} {
		if err := os.WriteFile(filepath.Join(module, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := map[string]invocation{
		"derive text":             {args: derive, env: secret},
		"derive --explain":        {args: append(derive, "--explain"), env: secret},
		"derive --format json":    {args: append(derive, "--format", "json"), env: secret},
		"derive --verify":         {args: append(derive, "--verify", strings.Repeat("0", 64)), env: secret},
		"derive --batch":          {args: []string{"derive", "--batch"}, env: secret, stdin: string(batch)},
		"derive --print-schema":   {args: []string{"derive", "--print-schema"}},
		"normcheck text":          {args: normcheck},
		"normcheck --format json": {args: append(normcheck, "--format", "json")},
		"normcheck --exec":        {args: []string{"normcheck", "--type", "cpf", "--exec", "sh " + filepath.Join(repoRoot, "testdata/normcheck/key-correct.sh"), "--payload", filepath.Join(repoRoot, "testdata/normcheck/payload.json"), "--field", "chave_pix_destino", "111.444.777-35"}},
		"lint --explain":          {args: []string{"lint", "--explain", "IDEM001"}},
		"lint text":               {args: []string{"lint", "./..."}, dir: module},
		"lint --format json":      {args: []string{"lint", "--format", "json", "./..."}, dir: module},
		"help":                    {args: []string{"--help"}},
	}
	if dsn := os.Getenv("IDEMCHECK_TEST_DATABASE"); dsn != "" {
		rt := []string{"restart-test", "--handler", "sh " + filepath.Join(repoRoot, "testdata/restart/sh/intent.sh"),
			"--setup", filepath.Join(repoRoot, "testdata/restart/sh/setup.sql"),
			"--message", filepath.Join(repoRoot, "testdata/restart/message.json"), "--dsn", dsn, "--kill-at", "none"}
		cases["restart-test text"] = invocation{args: rt}
		cases["restart-test --format json"] = invocation{args: append(rt, "--format", "json")}
	} else {
		t.Log("IDEMCHECK_TEST_DATABASE is not set: restart-test is not run")
	}
	// go vet caches its results per vet tool and package: one lint run
	// first, and both lint cases below replay it instead of vetting the
	// module twice at once.
	if r := (invocation{args: []string{"lint", "./..."}, dir: module}).run(t); r.code != 0 {
		t.Fatalf("lint on a module without findings: exit %d\n%s", r.code, r.all())
	}
	for name, inv := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer full.Close()
			inv.stdout = full
			r := inv.run(t)
			line := strings.TrimSpace(r.stderr)
			if r.code != 2 || strings.Contains(line, "\n") || !strings.Contains(line, "cannot write the output: no space left on device") {
				t.Errorf("exit %d, stderr %q: want exit 2 and one line about the output", r.code, r.stderr)
			}
		})
	}
}
