// Package cmd wires idemcheck's subcommands. It stays thin: each subcommand
// has an options struct, a constructor that only parses flags, and a run
// function that takes the options and writes to injected streams. The work
// itself lives in the library packages derive, analyzer and restarttest.
package cmd

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/internal/procgroup"
	"github.com/idemcheck/idemcheck/internal/redact"
)

// BuildInfo says which build this is. Releases set it with ldflags
// (.goreleaser.yaml); other builds fall back to what the go command recorded.
type BuildInfo struct {
	Version string // e.g. v1.2.3
	Commit  string // the commit hash
	Date    string // the commit or build time, RFC 3339
}

// NewRootCmd builds the idemcheck command tree.
func NewRootCmd(version string, ios *iostreams.IOStreams) *cobra.Command {
	return newRoot(BuildInfo{Version: version}, ios)
}

func newRoot(b BuildInfo, ios *iostreams.IOStreams) *cobra.Command {
	b = b.resolved()
	root := &cobra.Command{
		Use:   "idemcheck",
		Short: "Find idempotency keys that do not hold, before they cause a double charge",
		Long: `idemcheck finds idempotency keys that do not hold: keys drawn inside the
attempt (uuid, time, message ids, model output), keys whose normalization lets
two spellings of one customer through, and handlers that charge twice when the
queue redelivers.

Exit codes: 0 ok, 1 finding or violation, 2 usage or environment error.`,
		Version:       b.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		// Set here: cobra only defaults it when it makes its own message.
		SuggestionsMinimumDistance: 2,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(c, args)
			}
			return c.Help()
		},
	}
	root.SetVersionTemplate(fmt.Sprintf("idemcheck %s (commit %s, %s)\n", b.Version, b.Commit, b.Date))
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(
		NewCmdDerive(ios, nil),
		NewCmdLint(ios, nil),
		NewCmdNormcheck(ios, nil),
		NewCmdRestartTest(ios, nil),
		NewCmdDocs(ios, nil),
	)
	root.SetHelpCommand(helpCommand(root))
	registerCompletions(root)
	wrapHelp(root, ios)
	hidePositionalArgs(root)
	return root
}

// Execute runs idemcheck with the process arguments and returns the exit
// code. Errors are printed as one line, never as a stack trace.
func Execute(b BuildInfo, ios *iostreams.IOStreams) int {
	return execute(b, ios, os.Args[1:])
}

// ExecuteArgs runs idemcheck with args; tests call it directly.
func ExecuteArgs(version string, ios *iostreams.IOStreams, args []string) int {
	return execute(BuildInfo{Version: version}, ios, args)
}

func execute(b BuildInfo, ios *iostreams.IOStreams, args []string) int {
	defer catchSIGPIPE()()
	// Every byte written goes through the secrets' redaction: it is the one
	// place that sees the output of every command and format.
	secrets := runSecrets(args, os.Getenv)
	out := &outputWriter{w: ios.Out}
	stdout, stderr := redact.NewWriter(out, secrets), redact.NewWriter(ios.ErrOut, secrets)
	wrapped := *ios
	wrapped.Out, wrapped.ErrOut, wrapped.Secrets = stdout, stderr, secrets
	root := newRoot(b, &wrapped)
	root.SetArgs(args)
	err := root.Execute()
	_ = stdout.Flush()
	if werr := out.failure(); werr != nil {
		// The command's own error, if any, is most likely this one.
		err = outputFailedError(werr)
	}
	if err != nil {
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Err != nil {
			fmt.Fprintf(stderr, "idemcheck: %s\n", oneLine(err.Error()))
		}
	}
	_ = stderr.Flush()
	return exitCode(err)
}

// resolved fills what the ldflags left empty from the build information the
// go command records: the module version (go install pkg@version), and the
// commit and its time (a build in a git checkout).
func (b BuildInfo) resolved() BuildInfo {
	info, ok := debug.ReadBuildInfo()
	setting := func(key string) string {
		if !ok {
			return ""
		}
		for _, s := range info.Settings {
			if s.Key == key {
				return s.Value
			}
		}
		return ""
	}
	if b.Version == "" && ok && info.Main.Version != "" {
		b.Version = info.Main.Version
	}
	if b.Version == "" {
		b.Version = "(devel)"
	}
	if b.Commit == "" {
		b.Commit = setting("vcs.revision")
		if b.Commit != "" && setting("vcs.modified") == "true" {
			b.Commit += "+modified"
		}
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	if b.Date == "" {
		b.Date = setting("vcs.time")
	}
	if b.Date == "" {
		b.Date = "date unknown"
	} else {
		b.Date = "built " + b.Date
	}
	return b
}

// maxErrorLine bounds an error line: whatever a database, a server or a
// library put in an error (a quoted 100 MB value), the line stays readable.
const maxErrorLine = 2000

// oneLine folds s to one line of at most about maxErrorLine bytes, with
// terminal escapes and control characters (from a path, a value, a name
// the user gave) shown as escapes.
func oneLine(s string) string {
	return procgroup.Shorten(procgroup.Escaped(strings.Join(strings.Fields(s), " ")), maxErrorLine)
}
