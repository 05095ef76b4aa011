package cmd

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// complete runs cobra's hidden __complete command, as the shell scripts of
// `idemcheck completion` do, and returns the offered values (without
// descriptions) and the directive line.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	code, out, errOut := runRoot(t, "v0", append([]string{cobra.ShellCompRequestCmd}, args...)...)
	if code != ExitOK {
		t.Fatalf("__complete %v: exit %d, %s", args, code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var values []string
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		values = append(values, v)
	}
	return values, lines[len(lines)-1]
}

func TestFlagValuesComplete(t *testing.T) {
	noFiles := ":4" // ShellCompDirectiveNoFileComp
	cases := []struct {
		args      []string
		want      []string
		directive string
	}{
		{[]string{"lint", "--format", ""}, []string{"github", "json", "sarif", "text"}, noFiles},
		{[]string{"lint", "--format", "s"}, []string{"sarif"}, noFiles},
		{[]string{"lint", "--explain", "idem00"}, []string{"IDEM001", "IDEM002", "IDEM003", "IDEM004", "IDEM005", "IDEM006", "IDEM007"}, noFiles},
		{[]string{"lint", "--explain", "c"}, []string{"config"}, noFiles},
		{[]string{"normcheck", "--type", ""}, []string{"cpf", "cnpj", "phone", "email", "evp"}, noFiles},
		{[]string{"normcheck", "--rule", "pix"}, []string{"pix_key", "pix_key_typed"}, noFiles},
		{[]string{"derive", "--format", ""}, []string{"text", "json"}, noFiles},
		{[]string{"derive", "--action", "pix.c"}, []string{"pix.cobranca"}, noFiles},
		{[]string{"restart-test", "--kill-at", "re"}, []string{"request", "response", "resend", "respell"}, noFiles},
		{[]string{"restart-test", "--kill-at=after"}, []string{"after-response"}, noFiles},
		{[]string{"restart-test", "--kill-at", "db-"}, []string{"db-write:", "db-commit-lost:"}, ":6"}, // and no space after the colon
		{[]string{"restart-test", "--provider-fault", ""}, []string{"500-once", "delay:"}, ":6"},
		{[]string{"restart-test", "--format", "j"}, []string{"json"}, noFiles},
		// Free values: nothing to offer, and no file names either.
		{[]string{"derive", "--tenant", ""}, nil, noFiles},
		{[]string{"restart-test", "--timeout", ""}, nil, noFiles},
		{[]string{"lint", "--tags", ""}, nil, noFiles},
		// Files: the shell's own completion.
		{[]string{"lint", "--config", ""}, nil, ":0"},
		{[]string{"restart-test", "--message", ""}, nil, ":0"},
	}
	for _, c := range cases {
		got, directive := complete(t, c.args...)
		if !slices.Equal(got, c.want) || directive != c.directive {
			t.Errorf("__complete %q = %q %s; want %q %s", c.args, got, directive, c.want, c.directive)
		}
	}
}

// Every flag that takes a value has a completion: file names only where
// the value is a file, a path or a command.
func TestEveryValueFlagHasACompletion(t *testing.T) {
	root := newRoot(BuildInfo{Version: "v0"}, iostreamsForTest())
	for _, c := range root.Commands() {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.NoOptDefVal != "" || f.Value.Type() == "bool" {
				return
			}
			if _, ok := c.GetFlagCompletionFunc(f.Name); !ok {
				placeholder, _ := pflag.UnquoteUsage(f)
				if !fileValued[placeholder] {
					t.Errorf("%s --%s (%s) has no completion: the shell offers file names", c.Name(), f.Name, placeholder)
				}
			}
		})
	}
}
