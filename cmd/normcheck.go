package cmd

import (
	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// NormcheckOptions are the parsed flags of `idemcheck normcheck`.
type NormcheckOptions struct {
	IO *iostreams.IOStreams
}

// NewCmdNormcheck is a placeholder until issue 5 lands.
func NewCmdNormcheck(ios *iostreams.IOStreams, runF func(*NormcheckOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "normcheck",
		Short: "Prove that every spelling of an identifier normalizes to the same value",
		RunE: func(*cobra.Command, []string) error {
			return UsageErrorf("normcheck is not implemented yet")
		},
	}
}
