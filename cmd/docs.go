package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/analyzer/suite"
	"github.com/idemcheck/idemcheck/internal/docgen"
	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// DocsOptions are the options of the hidden `idemcheck docs` command.
type DocsOptions struct {
	IO  *iostreams.IOStreams
	Dir string
}

// NewCmdDocs builds `idemcheck docs`, which `go generate` runs to write the
// generated references (docs/rules.md, docs/flags.md). It is hidden: it is
// for idemcheck's maintainers, not its users.
func NewCmdDocs(ios *iostreams.IOStreams, runF func(*cobra.Command, *DocsOptions) error) *cobra.Command {
	opts := &DocsOptions{IO: ios}
	c := &cobra.Command{
		Use:    "docs",
		Short:  "Write the generated references into the docs directory",
		Args:   cobra.NoArgs,
		Hidden: true,
		RunE: func(c *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(c, opts)
			}
			return docsRun(c.Root(), opts)
		},
	}
	c.Flags().StringVar(&opts.Dir, "dir", "docs", "write the docs into `DIR`")
	return c
}

func docsRun(root *cobra.Command, opts *DocsOptions) error {
	files, err := docgen.Files(root, suite.Rules())
	if err != nil {
		return err
	}
	if err := docgen.Write(opts.Dir, files); err != nil {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("write the docs: %w; run it from the repository root, or pass --dir", err)}
	}
	return nil
}
