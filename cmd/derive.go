package cmd

import (
	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// DeriveOptions are the parsed flags of `idemcheck derive`.
type DeriveOptions struct {
	IO *iostreams.IOStreams
}

// NewCmdDerive is a placeholder until issue 2 lands.
func NewCmdDerive(ios *iostreams.IOStreams, runF func(*DeriveOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "derive",
		Short: "Derive, explain and verify idempotency keys exactly as the reference function does",
		RunE: func(*cobra.Command, []string) error {
			return UsageErrorf("derive is not implemented yet")
		},
	}
}
