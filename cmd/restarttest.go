package cmd

import (
	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// RestartTestOptions are the parsed flags of `idemcheck restart-test`.
type RestartTestOptions struct {
	IO *iostreams.IOStreams
}

// NewCmdRestartTest is a placeholder until issue 4 lands.
func NewCmdRestartTest(ios *iostreams.IOStreams, runF func(*RestartTestOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "restart-test",
		Short: "Kill a handler mid-flight, redeliver, and check the effect happened exactly once",
		RunE: func(*cobra.Command, []string) error {
			return UsageErrorf("restart-test is not implemented yet")
		},
	}
}
