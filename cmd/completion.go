package cmd

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/report"
	"github.com/idemcheck/idemcheck/analyzer/suite"
	"github.com/idemcheck/idemcheck/derive"
	"github.com/idemcheck/idemcheck/derive/pixkey"
	"github.com/idemcheck/idemcheck/restarttest"
)

// flagValues are the completions of the flags with a fixed set of values,
// by command name and flag name. The values come from where each command
// checks them, so a new format or rule is completed without a change here.
var flagValues = map[string]map[string]func() []string{
	"lint": {
		"format":  report.FormatNames,
		"explain": explainTopics,
	},
	"derive": {
		"format": textOrJSON,
		"action": derive.DefaultSchema().ActionNames,
	},
	"normcheck": {
		"format": textOrJSON,
		"type":   keyTypes,
		"rule":   derive.RuleNames,
		"action": derive.DefaultSchema().ActionNames,
	},
	"restart-test": {
		"format":  textOrJSON,
		"kill-at": restarttest.KillPointForms,
		"provider-fault": func() []string {
			return []string{"500-once\tfail the first effect request", "delay:\tanswer after a DURATION"}
		},
	},
}

func textOrJSON() []string { return []string{"text", "json"} }

func keyTypes() []string {
	out := make([]string, len(pixkey.Kinds))
	for i, k := range pixkey.Kinds {
		out[i] = string(k)
	}
	return out
}

// explainTopics are lint --explain's values: every rule, with its title,
// and the configuration file.
func explainTopics() []string {
	var out []string
	for _, r := range suite.Rules() {
		out = append(out, r.ID+"\t"+r.Title)
	}
	return append(out, explainConfig+"\tthe keys of "+config.FileName)
}

// fileValued are the placeholders of flags whose value is a path or a
// command: the shell's file completion is right for them.
var fileValued = map[string]bool{"FILE": true, "PATH": true, "COMMAND": true}

// registerCompletions gives every flag of the tree a value completion: its
// fixed values, or none at all — a shell would otherwise offer the file
// names of the working directory for --format or --tenant.
func registerCompletions(root *cobra.Command) {
	for _, c := range root.Commands() {
		values := flagValues[c.Name()]
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.NoOptDefVal != "" || f.Value.Type() == "bool" {
				return // takes no value
			}
			if list, ok := values[f.Name]; ok {
				_ = c.RegisterFlagCompletionFunc(f.Name, fixedValues(list))
				return
			}
			if placeholder, _ := pflag.UnquoteUsage(f); !fileValued[placeholder] {
				_ = c.RegisterFlagCompletionFunc(f.Name, cobra.NoFileCompletions)
			}
		})
	}
}

// fixedValues completes the values that start with what was typed; a value
// ending in ":" (db-write:, delay:) is followed by its argument, not a space.
func fixedValues(list func() []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		directive := cobra.ShellCompDirectiveNoFileComp
		for _, v := range list() {
			name, _, _ := strings.Cut(v, "\t")
			if strings.HasPrefix(strings.ToLower(name), strings.ToLower(typed)) {
				out = append(out, v)
				if strings.HasSuffix(name, ":") {
					directive |= cobra.ShellCompDirectiveNoSpace
				}
			}
		}
		return out, directive
	}
}
