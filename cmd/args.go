package cmd

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// A secret pasted on the command line by mistake (`idemcheck derive
// $IDEMPOTENCY_HMAC_KEY`) must not land in a CI log: argument errors name
// arguments by position, never by value.

// hidePositionalArgs wraps the argument check of every command in the tree,
// including cobra's help and completion commands, so that its errors do not
// echo the arguments.
func hidePositionalArgs(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if check := c.Args; check != nil {
			c.Args = func(cmd *cobra.Command, args []string) error {
				if err := swallowedFlag(cmd); err != nil {
					return err
				}
				if err := check(cmd, args); err != nil {
					return argsError(cmd, args, err)
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// swallowedFlag catches a flag written without its value before another
// flag (`--dsn --kill-at none`): the parser takes the next flag as the
// value, and the error it leads to (a stray argument, a bad DSN) names the
// wrong thing. A value that is exactly another of the command's flags is
// never meant as one. Only the flags' names are shown.
func swallowedFlag(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err != nil || f.Value.Type() == "bool" {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			name, isFlag := strings.CutPrefix(v, "--")
			name, _, _ = strings.Cut(name, "=")
			if isFlag && cmd.Flags().Lookup(name) != nil {
				err = UsageErrorf("--%s has no value: it took --%s, the flag after it, as its value; give --%s a value (--%s=VALUE)", f.Name, name, f.Name, f.Name)
				return
			}
		}
	})
	return err
}

// argsError says what is wrong with a command's arguments without showing
// them.
func argsError(cmd *cobra.Command, args []string, err error) error {
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	if cmd.Args(cmd, nil) == nil && len(args) > 0 {
		return UsageErrorf("%s takes no arguments (got %d, not shown); see '%s --help'", name, len(args), cmd.CommandPath())
	}
	return UsageErrorf("%s; see '%s --help'", redactArgs(err.Error(), args), cmd.CommandPath())
}

// unknownCommand is the root's answer to an argument that names no command.
func unknownCommand(root *cobra.Command, args []string) error {
	hint := ""
	if s := root.SuggestionsFor(args[0]); len(s) > 0 {
		hint = "did you mean " + strings.Join(s, " or ") + "? "
	}
	if strings.EqualFold(strings.TrimLeft(args[0], "-"), "version") {
		hint = "for the version, run 'idemcheck --version'; "
	}
	return UsageErrorf("unknown command %s; %scommands: %s", typedCommand(args[0]), hint, commandNames(root))
}

// typedCommand shows an unknown command as typed, quoted with control
// characters escaped (it cannot move the cursor or end the line), unless
// it holds the HMAC secret of the environment: `idemcheck
// $IDEMPOTENCY_HMAC_KEY` must not print the key.
func typedCommand(arg string) string {
	if secret := os.Getenv(secretEnv); secret != "" && strings.Contains(arg, secret) {
		return "(argument 1, not shown: it holds $" + secretEnv + ")"
	}
	return strconv.Quote(arg)
}

func commandNames(root *cobra.Command) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return strings.Join(names, ", ")
}

// helpCommand replaces cobra's, which echoes an unknown topic.
func helpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Args:  cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if target == nil || err != nil || len(rest) > 0 {
				return UsageErrorf("no help topic for the %d arguments given (not shown); commands: %s", len(args), commandNames(root))
			}
			return target.Help()
		},
	}
}

// redactArgs replaces every argument in msg that could hold a secret by its
// position. Arguments naming an existing file or directory (./..., ./cmd)
// stay: they are no secret, and the message needs them.
func redactArgs(msg string, args []string) string { return redactArgsIn("", msg, args) }

// redactArgsIn is redactArgs for a command whose relative paths are
// relative to dir ("" is the working directory), like lint's --dir.
func redactArgsIn(dir, msg string, args []string) string {
	for i, a := range args {
		if a == "" || isExistingPath(dir, a) {
			continue
		}
		msg = strings.ReplaceAll(msg, a, "argument "+strconv.Itoa(i+1))
	}
	return msg
}

// isExistingPath reports whether a names a file or directory, or is a
// package pattern like ./x/... below one, relative to dir.
func isExistingPath(dir, a string) bool {
	d, ok := patternPath(dir, a)
	if !ok {
		return false
	}
	_, err := os.Stat(d)
	return err == nil
}

// patternPath is the path a local package pattern names, relative to dir
// ("" is the working directory), and false for an import path.
func patternPath(dir, a string) (string, bool) {
	d, ok := localPatternDir(a)
	if ok && dir != "" && !filepath.IsAbs(d) {
		d = filepath.Join(dir, d)
	}
	return d, ok
}

// localPatternDir returns the path a local package pattern (./x, ../x/...,
// /abs/...) names, and false for an import path.
func localPatternDir(a string) (string, bool) {
	if !strings.HasPrefix(a, ".") && !filepath.IsAbs(a) {
		return "", false
	}
	p := strings.TrimSuffix(a, "...")
	if p == "" {
		p = "."
	}
	return filepath.Clean(p), true
}
