package cmd

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// helpOf runs `idemcheck <path> --help` with output wrapped to width (0:
// not wrapped, as in a pipe without COLUMNS).
func helpOf(t *testing.T, width int, path ...string) string {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	ios.SetWidth(width)
	if code := execute(BuildInfo{Version: "v0"}, ios, append(path, "--help")); code != ExitOK {
		t.Fatalf("%v --help: exit %d, %s", path, code, errOut)
	}
	return out.String()
}

func visibleCommands(root *cobra.Command) [][]string {
	paths := [][]string{nil}
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			paths = append(paths, []string{c.Name()})
		}
	}
	return paths
}

// On 80 columns no help line is wider than the terminal (which would break
// it mid-word), and wrapping only moves words: the text is the same.
func TestHelpWrapsToTheTerminalAtWordBoundaries(t *testing.T) {
	root := newRoot(BuildInfo{Version: "v0"}, iostreamsForTest())
	for _, path := range visibleCommands(root) {
		plain := helpOf(t, 0, path...)
		for _, width := range []int{80, 60} {
			wrapped := helpOf(t, width, path...)
			for _, l := range strings.Split(wrapped, "\n") {
				if n := len([]rune(l)); n > width && strings.Contains(strings.TrimSpace(l), " ") {
					t.Errorf("%v --help on %d columns: a line of %d: %q", path, width, n, l)
				}
			}
			if strings.Join(strings.Fields(wrapped), " ") != strings.Join(strings.Fields(plain), " ") {
				t.Errorf("%v --help on %d columns: the words changed:\n%s", path, width, wrapped)
			}
		}
	}
	// lint's flag descriptions continue under their column.
	lint := helpOf(t, 80, "lint")
	if !strings.Contains(lint, "      --analyzer-flag FLAG      pass a FLAG to the analyzers, e.g.\n                                -IDEM001.keypattern=REGEXP (repeatable)\n") {
		t.Errorf("lint --help on 80 columns:\n%s", lint)
	}
}

// Piped help, without COLUMNS, keeps cobra's lines whole.
func TestPipedHelpIsNotWrapped(t *testing.T) {
	t.Setenv("COLUMNS", "")
	if w := iostreams.System().Width(); w != 0 && !isTerminal(os.Stdout) {
		t.Errorf("width %d for a stdout that is not a terminal", w)
	}
	t.Setenv("COLUMNS", "72")
	if w := iostreams.System().Width(); w != 72 {
		t.Errorf("COLUMNS=72: width %d", w)
	}
	if help := helpOf(t, 0, "lint"); !strings.Contains(help, "--write-baseline          record this run's findings in the --baseline file and exit 0\n") {
		t.Errorf("piped lint --help is wrapped:\n%s", help)
	}
}

// pflag takes a back-quoted word of a flag's usage as its placeholder
// (FILE, FORMAT); any other back quote would be printed as it is.
func TestHelpShowsNoBackticks(t *testing.T) {
	root := newRoot(BuildInfo{Version: "v0"}, iostreamsForTest())
	for _, path := range visibleCommands(root) {
		for _, width := range []int{0, 80} {
			if help := helpOf(t, width, path...); strings.Contains(help, "`") {
				t.Errorf("%v --help shows a backtick:\n%s", path, help)
			}
		}
	}
	flags, err := os.ReadFile("../docs/flags.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(flags), "```text\n")[1:] {
		if body, _, _ := strings.Cut(block, "```"); strings.Contains(body, "`") {
			t.Errorf("docs/flags.md shows a backtick in:\n%s", body)
		}
	}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
