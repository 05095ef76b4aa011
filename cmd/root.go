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
)

// NewRootCmd builds the idemcheck command tree.
func NewRootCmd(version string, ios *iostreams.IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "idemcheck",
		Short: "Find idempotency keys that do not hold, before they cause a double charge",
		Long: `idemcheck finds idempotency keys that do not hold: keys drawn inside the
attempt (uuid, time, message ids, model output), keys whose normalization lets
two spellings of one customer through, and handlers that charge twice when the
queue redelivers.

Exit codes: 0 ok, 1 finding or violation, 2 usage or environment error.`,
		Version:       resolveVersion(version),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &ExitError{Code: ExitUsage, Err: err}
	})
	root.AddCommand(
		NewCmdDerive(ios, nil),
		NewCmdLint(ios, nil),
		NewCmdNormcheck(ios, nil),
		NewCmdRestartTest(ios, nil),
		NewCmdDocs(ios, nil),
	)
	return root
}

// Execute runs idemcheck with the process arguments and returns the exit
// code. Errors are printed as one line, never as a stack trace.
func Execute(version string, ios *iostreams.IOStreams) int {
	return ExecuteArgs(version, ios, os.Args[1:])
}

// ExecuteArgs runs idemcheck with args; tests call it directly.
func ExecuteArgs(version string, ios *iostreams.IOStreams, args []string) int {
	root := NewRootCmd(version, ios)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Err != nil {
			fmt.Fprintf(ios.ErrOut, "idemcheck: %s\n", oneLine(err.Error()))
		}
	}
	return exitCode(err)
}

// resolveVersion prefers the release ldflags value and falls back to the
// module version recorded by `go install`.
func resolveVersion(v string) string {
	if v != "" {
		return v
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
