package cmd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/idemcheck/idemcheck/internal/suggest"
)

// flagError turns pflag's parse errors into one line that ends in what to
// do: the flag the user probably meant, what a flag's value must look like,
// or where the flags are listed.
func flagError(c *cobra.Command, err error) error {
	var bad *pflag.InvalidValueError
	if errors.As(err, &bad) {
		return badValue(bad)
	}
	help := fmt.Sprintf("run '%s --help' for the flags", c.CommandPath())
	if name, ok := singleDashLongFlag(err); ok {
		if s := suggest.Closest(name, flagNames(c)); s != "" {
			return &ExitError{Code: ExitUsage, Err: fmt.Errorf("unknown flag -%s: did you mean --%s? (long flags take two dashes)", name, s)}
		}
	}
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("%s; %s", oneLine(err.Error()), help)}
	}
	if s := suggest.Closest(name, flagNames(c)); s != "" {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("unknown flag --%s: did you mean --%s?", name, s)}
	}
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf("unknown flag --%s; %s", name, help)}
}

// singleDashLongFlag recognizes a Go-style long flag with one dash
// (`-format json`, `-format=json`), which pflag reads as the shorthands
// f, o, r…: "unknown shorthand flag: 'f' in -format". It returns the name
// without the dash and without a value after "=" (which may be a secret).
func singleDashLongFlag(err error) (string, bool) {
	msg := err.Error()
	if !strings.HasPrefix(msg, "unknown shorthand flag: ") {
		return "", false
	}
	_, arg, ok := strings.Cut(msg, " in -")
	if !ok {
		return "", false
	}
	name, _, _ := strings.Cut(arg, "=")
	if len(name) < 2 || strings.HasPrefix(name, "-") {
		return "", false
	}
	return name, true
}

// flagNames are the names of c's visible flags, local and inherited.
func flagNames(c *cobra.Command) []string {
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	return names
}

// badValue turns pflag's `invalid argument "V" for "-t, --tests" flag:
// strconv.ParseBool: ...` into what the flag wants, in words: the parser's
// text names Go functions the user never called.
func badValue(e *pflag.InvalidValueError) error {
	f := e.GetFlag()
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf("--%s %q: %s", f.Name, e.GetValue(), wantedValue(f.Value.Type(), e))}
}

// wantedValue says what a flag of pflag's type typ accepts.
func wantedValue(typ string, err error) string {
	if errors.Is(err, strconv.ErrRange) {
		return "out of range; want a smaller whole number"
	}
	switch typ {
	case "bool":
		return "want true or false"
	case "duration":
		return "want a duration such as 30s or 2m"
	case "int", "int8", "int16", "int32", "int64", "count":
		return "want a whole number"
	case "uint", "uint8", "uint16", "uint32", "uint64":
		return "want a whole number, 0 or more"
	case "float32", "float64":
		return "want a number such as 1.5"
	case "size":
		return "want a size such as 64MiB"
	}
	return "not a valid value"
}
