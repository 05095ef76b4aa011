package clitest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// canary stands for an HMAC secret given where it does not belong.
const canary = "sk_live_c4nary_9f3a7e21"

// Mistaken invocations: the secret typed as a positional argument of each
// subcommand, as the value of --hmac-key-file, next to a typo. Whatever
// idemcheck answers, the secret is in none of its output.
func TestSecretInAMistakenInvocationIsNeverPrinted(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	if err := os.WriteFile(keyFile, []byte(canary+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	intent := filepath.Join(repoRoot, "examples/derive/intent.json")
	derive := []string{"derive", "--tenant", "acme", "--action", "pix.cobranca", "--payload", intent}
	inEnv := []string{"IDEMPOTENCY_HMAC_KEY=" + canary}
	cases := map[string]invocation{
		"as the command, in the environment":     {args: []string{canary}, env: inEnv},
		"inside the command, in the environment": {args: []string{"x" + canary + "y"}, env: inEnv},
		"after a typo of a command":              {args: []string{"derve", canary}},
		"to derive":                              {args: []string{"derive", canary}},
		"to derive with its flags":               {args: append(append([]string{}, derive...), canary)},
		"to derive --batch":                      {args: []string{"derive", "--batch", canary}},
		"to lint":                                {args: []string{"lint", canary}},
		"to lint with a pattern":                 {args: []string{"lint", "./...", canary}, dir: dir},
		"to normcheck without --type":            {args: []string{"normcheck", canary}},
		"to restart-test":                        {args: []string{"restart-test", canary}},
		"to restart-test with its flags":         {args: []string{"restart-test", "--handler", "true", "--message", intent, canary}},
		"to help":                                {args: []string{"help", canary}},
		"to completion":                          {args: []string{"completion", "bash", canary}},
		"as --hmac-key-file, a missing file":     {args: append(append([]string{}, derive...), "--hmac-key-file", canary)},
		"as --hmac-key-file=":                    {args: append(append([]string{}, derive...), "--hmac-key-file="+canary)},
		"as --hmac-key-file before the intent":   {args: []string{"derive", "--hmac-key-file", canary, "--tenant", "acme"}},
		"as --hmac-key-file of lint":             {args: []string{"lint", "--hmac-key-file", canary}},
		"as a flag that does not exist":          {args: append(append([]string{}, derive...), "--hmac-key", canary)},
		"in the key file, explained":             {args: append(append([]string{}, derive...), "--hmac-key-file", keyFile, "--explain")},
		"in the key file, as json":               {args: append(append([]string{}, derive...), "--hmac-key-file", keyFile, "--format", "json")},
		"in the environment, bad action":         {args: []string{"derive", "--tenant", "acme", "--action", "nope", "--payload", intent}, env: inEnv},
		"in the environment, verify fails":       {args: append(append([]string{}, derive...), "--verify", strings.Repeat("0", 64)), env: inEnv},
		"in the environment, batch errors":       {args: []string{"derive", "--batch"}, env: inEnv, stdin: "{not json\n{\"tenant\": 1}\n"},
	}
	for name, inv := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := inv.run(t)
			if strings.Contains(r.all(), canary) {
				t.Errorf("the secret is printed (exit %d):\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			if r.code == 0 && !strings.HasPrefix(name, "in the key file") {
				t.Errorf("a mistaken invocation succeeded:\n%s", r.all())
			}
		})
	}
}

// The sh handlers shipped as examples pass the secret to psql through the
// environment (\getenv), never as an argument everyone can read with ps.
func TestShellExamplesKeepTheSecretOutOfArgv(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join(repoRoot, "testdata/restart/sh/*.sh"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no sh examples: %v", err)
	}
	expanded := regexp.MustCompile(`\$\{?IDEMPOTENCY_HMAC_KEY\b`)
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if expanded.MatchString(line) {
				t.Errorf("%s:%d expands the secret into a command line: %s", filepath.Base(s), i+1, strings.TrimSpace(line))
			}
		}
	}
}
