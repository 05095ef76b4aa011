package cmd

import (
	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// LintOptions are the parsed flags of `idemcheck lint`.
type LintOptions struct {
	IO *iostreams.IOStreams
}

// NewCmdLint is a placeholder until issue 3 lands.
func NewCmdLint(ios *iostreams.IOStreams, runF func(*LintOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "lint [packages]",
		Short: "Report per-attempt values flowing into idempotency keys",
		RunE: func(*cobra.Command, []string) error {
			return UsageErrorf("lint is not implemented yet")
		},
	}
}
