package cmd

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/idemcheck/idemcheck/internal/iostreams"
)

func runRoot(t *testing.T, version string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	code = ExecuteArgs(version, ios, args)
	return code, out.String(), errOut.String()
}

func TestVersionFromLdflags(t *testing.T) {
	code, out, _ := runRoot(t, "v1.2.3", "--version")
	if code != ExitOK || !strings.Contains(out, "v1.2.3") {
		t.Fatalf("--version: code %d, out %q", code, out)
	}
}

func TestVersionFallsBackToBuildInfo(t *testing.T) {
	b := BuildInfo{}.resolved()
	if b.Version == "" || b.Commit == "" || b.Date == "" {
		t.Fatalf("resolved() = %+v; want the module version or (devel), and a commit and date or 'unknown'", b)
	}
}

func TestVersionShowsCommitAndDate(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	code := execute(BuildInfo{Version: "v1.2.3", Commit: "0123abc", Date: "2026-11-30T15:00:00Z"}, ios, []string{"--version"})
	want := "idemcheck v1.2.3 (commit 0123abc, built 2026-11-30T15:00:00Z)\n"
	if code != ExitOK || out.String() != want {
		t.Fatalf("--version: code %d, out %q, want %q", code, out.String(), want)
	}
}

func TestUnknownFlagIsUsageError(t *testing.T) {
	code, _, errOut := runRoot(t, "v0", "--no-such-flag")
	if code != ExitUsage {
		t.Fatalf("unknown flag: exit %d, want %d", code, ExitUsage)
	}
	if strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "no-such-flag") {
		t.Fatalf("want one line naming the flag, got %q", errOut)
	}
}

func TestUnknownFlagSuggestsTheClosest(t *testing.T) {
	wantUsageErrors(t, map[string]string{
		"lint --fromat json":    "idemcheck: unknown flag --fromat: did you mean --format?\n",
		"derive --tennant acme": "idemcheck: unknown flag --tennant: did you mean --tenant?\n",
		"lint --verbose":        "idemcheck: unknown flag --verbose; run 'idemcheck lint --help' for the flags\n",
		"normcheck -Z":          "idemcheck: unknown shorthand flag: 'Z' in -Z; run 'idemcheck normcheck --help' for the flags\n",
	})
}

// An unknown command is shown as typed, quoted so that control characters
// cannot reach the terminal, unless it holds the HMAC secret.
func TestUnknownCommandShowsWhatWasTyped(t *testing.T) {
	wantUsageErrors(t, map[string]string{
		"lnit":      "idemcheck: unknown command \"lnit\"; did you mean lint? commands: completion, derive, lint, normcheck, restart-test\n",
		"bogus":     "idemcheck: unknown command \"bogus\"; commands: completion, derive, lint, normcheck, restart-test\n",
		"a\x1b[2Jb": "idemcheck: unknown command \"a\\x1b[2Jb\"; commands: completion, derive, lint, normcheck, restart-test\n",
	})
	t.Setenv(secretEnv, "sk_test_42")
	wantUsageErrors(t, map[string]string{
		"sk_test_42": "idemcheck: unknown command (argument 1, not shown: it holds $IDEMPOTENCY_HMAC_KEY); commands: completion, derive, lint, normcheck, restart-test\n",
	})
}

// Go's flag package takes long flags with one dash; pflag reads `-format`
// as the shorthands f, o, r, …: the error says which long flag was meant,
// without a value given after "=".
func TestSingleDashLongFlagSuggestsTwoDashes(t *testing.T) {
	wantUsageErrors(t, map[string]string{
		"lint -format json ./x":          "idemcheck: unknown flag -format: did you mean --format? (long flags take two dashes)\n",
		"lint -format=secretvalue ./x":   "idemcheck: unknown flag -format: did you mean --format? (long flags take two dashes)\n",
		"restart-test -kill-at response": "idemcheck: unknown flag -kill-at: did you mean --kill-at? (long flags take two dashes)\n",
		"lint -tests":                    "idemcheck: unknown flag -tests: did you mean --tests? (long flags take two dashes)\n",
		"lint -zzzzzz":                   "idemcheck: unknown shorthand flag: 'z' in -zzzzzz; run 'idemcheck lint --help' for the flags\n",
	})
}

// A value that does not parse is named with what the flag wants, never with
// the Go parser that refused it.
func TestBadFlagValueSaysWhatTheFlagWants(t *testing.T) {
	wantUsageErrors(t, map[string]string{
		"lint --tests=maybe ./x":                "idemcheck: --tests \"maybe\": want true or false\n",
		"restart-test --timeout abc":            "idemcheck: --timeout \"abc\": want a duration such as 30s or 2m\n",
		"normcheck --timeout 1x":                "idemcheck: --timeout \"1x\": want a duration such as 30s or 2m\n",
		"restart-test --max-attempts x":         "idemcheck: --max-attempts \"x\": want a whole number\n",
		"restart-test --seed 1e99":              "idemcheck: --seed \"1e99\": want a whole number\n",
		"derive --workers 99999999999999999999": "idemcheck: --workers \"99999999999999999999\": out of range; want a smaller whole number\n",
	})
}

// wantUsageErrors runs each command line (split on spaces) and wants exit 2
// with exactly the given stderr.
func wantUsageErrors(t *testing.T, cases map[string]string) {
	t.Helper()
	for args, want := range cases {
		code, _, errOut := runRoot(t, "v0", strings.Fields(args)...)
		if code != ExitUsage || errOut != want {
			t.Errorf("%s: exit %d, stderr %q; want exit %d, %q", args, code, errOut, ExitUsage, want)
		}
	}
}

func TestCompletionIsAvailable(t *testing.T) {
	code, out, _ := runRoot(t, "v0", "completion", "bash")
	if code != ExitOK || !strings.Contains(out, "idemcheck") {
		t.Fatalf("completion bash: exit %d, %d bytes", code, len(out))
	}
}

func TestExitCodes(t *testing.T) {
	cases := []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{ErrFindings, ExitFinding},
		{FindingErrorf("key mismatch"), ExitFinding},
		{UsageErrorf("bad flag"), ExitUsage},
		{errString("database unreachable"), ExitUsage},
	}
	for _, c := range cases {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("exitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// Help shows what a flag's value is (FILE, DURATION, N), never the Go type
// that holds it (string, stringArray, int, duration).
func TestFlagPlaceholdersAreNotGoTypes(t *testing.T) {
	root := newRoot(BuildInfo{Version: "v0"}, iostreamsForTest())
	for _, c := range append(root.Commands(), root) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			// Without a back-quoted word pflag falls back to the type.
			name, usage := pflag.UnquoteUsage(f)
			if name != "" && usage == f.Usage {
				t.Errorf("%s --%s: placeholder %q is the Go type; put a `WORD` in its usage", c.Name(), f.Name, name)
			}
		})
	}
}

func iostreamsForTest() *iostreams.IOStreams {
	ios, _, _, _ := iostreams.Test()
	return ios
}
