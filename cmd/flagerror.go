package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/idemcheck/idemcheck/internal/suggest"
)

// flagError turns pflag's parse errors into one line that ends in what to
// do: the flag the user probably meant, or where the flags are listed.
func flagError(c *cobra.Command, err error) error {
	help := fmt.Sprintf("run '%s --help' for the flags", c.CommandPath())
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("%s; %s", oneLine(err.Error()), help)}
	}
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if s := suggest.Closest(name, names); s != "" {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("unknown flag --%s: did you mean --%s?", name, s)}
	}
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf("unknown flag --%s; %s", name, help)}
}
