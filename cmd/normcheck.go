package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/derive"
	"github.com/idemcheck/idemcheck/derive/pixkey"
	"github.com/idemcheck/idemcheck/internal/input"
	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/internal/procgroup"
	"github.com/idemcheck/idemcheck/internal/ui"
	"github.com/idemcheck/idemcheck/normcheck"
)

// The field whose rule normcheck uses when neither --rule nor --field says
// otherwise: the destination Pix key of the reference schema.
const (
	defaultNormcheckAction = "pix.cobranca"
	defaultNormcheckField  = "chave_pix_destino"
)

// NormcheckOptions are the parsed flags of `idemcheck normcheck`.
type NormcheckOptions struct {
	IO *iostreams.IOStreams

	Type       string   // cpf, cnpj, phone, email, evp
	Values     []string // identifiers to check
	Rule       string   // --rule: a derive rule by name
	SchemaFile string   // --schema: take the rule from this schema
	Action     string   // --action: the schema action
	Field      string   // --field: the schema field, or the payload field with --exec
	Format     string   // text or json

	Exec    string        // --exec: the user's key command, run with sh -c
	Payload string        // --payload: JSON object file fed to --exec (- for stdin)
	Timeout time.Duration // per run of --exec

	MaxInput input.Size // cap of --schema and --payload
}

// NewCmdNormcheck builds `idemcheck normcheck`.
func NewCmdNormcheck(ios *iostreams.IOStreams, runF func(*NormcheckOptions) error) *cobra.Command {
	opts := &NormcheckOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "normcheck --type cpf|cnpj|phone|email|evp [--rule R | --schema F --action A --field NAME | --exec CMD --payload FILE --field NAME] VALUE...",
		Short: "Prove that every spelling of an identifier normalizes to the same value",
		Long: `normcheck validates each VALUE as an identifier of the given type, generates
the spellings real systems send for it (masked and bare, other separators,
surrounding spaces, tabs and NBSP, letter case, NFD accents, the usual phone
forms, UUIDs with and without hyphens) and normalizes every spelling.

By default it uses the rule of chave_pix_destino in the default schema
(pix_key, rules version 1). --rule picks a rule by name; --schema, --action
and --field take it from a schema file. --exec audits your own key function
in any language: for each spelling it runs CMD with sh -c, writes the
--payload JSON with --field replaced by the spelling to its stdin, and reads
the key from its stdout. It also runs the first spelling twice (a key drawn
inside the attempt changes) and a different valid identifier once (a key
that ignores the field does not).

Exit codes: 0 every spelling agrees, 1 an invalid VALUE, a spelling that
normalizes differently or a failed --exec check, 2 usage error or a --exec
command that fails, hangs or prints nothing.`,
		Example: `  idemcheck normcheck --type cpf 111.444.777-35 390.533.447-05
  idemcheck normcheck --type phone --rule phone_e164 '(11) 98765-4321'
  idemcheck normcheck --type cpf --exec 'sh testdata/normcheck/key-correct.sh' --payload testdata/normcheck/payload.json --field chave_pix_destino 111.444.777-35`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Values = args
			if err := checkNormcheckFlags(c, opts); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return normcheckRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Type, "type", "", "identifier `TYPE`: cpf, cnpj, phone, email or evp (required; never guessed)")
	f.StringVar(&opts.Rule, "rule", "", "normalize with this `RULE` (default: the schema's rule for chave_pix_destino, pix_key)")
	f.StringVar(&opts.SchemaFile, "schema", "", "take the rule from this schema `FILE` (YAML)")
	f.StringVar(&opts.Action, "action", "", "the schema `ACTION` holding --field")
	f.StringVar(&opts.Field, "field", "", "the schema `FIELD` whose rule to use; with --exec, the payload field to replace")
	f.StringVar(&opts.Format, "format", "text", "output `FORMAT`: text or json")
	f.StringVar(&opts.Exec, "exec", "", "audit your own key `COMMAND`: run it with sh -c per spelling, payload on stdin, key on stdout")
	f.StringVar(&opts.Payload, "payload", "", "JSON object `FILE` sent to --exec (- for stdin)")
	f.DurationVar(&opts.Timeout, "timeout", 10*time.Second, "kill a --exec run (and its children) after `DURATION`")
	addMaxInputFlag(f, &opts.MaxInput)
	return cmd
}

// checkNormcheckFlags refuses flag combinations that have no meaning.
func checkNormcheckFlags(c *cobra.Command, opts *NormcheckOptions) error {
	changed := c.Flags().Changed
	switch {
	case opts.Type == "":
		return UsageErrorf("--type is required (cpf, cnpj, phone, email or evp): the key type is never guessed")
	case len(opts.Values) == 0:
		return UsageErrorf("give at least one VALUE to check")
	case opts.Format != "text" && opts.Format != "json":
		return UsageErrorf("--format must be text or json, not %q", opts.Format)
	case changed("exec") && strings.TrimSpace(opts.Exec) == "":
		return UsageErrorf("--exec: empty command")
	case changed("rule") && opts.Rule == "":
		return UsageErrorf("--rule: empty rule name")
	case opts.Exec != "" && (opts.Rule != "" || opts.SchemaFile != "" || opts.Action != ""):
		return UsageErrorf("--exec checks your command, not a rule: drop --rule, --schema and --action")
	case opts.Rule != "" && (opts.SchemaFile != "" || opts.Action != "" || opts.Field != ""):
		return UsageErrorf("--rule cannot be combined with --schema, --action or --field")
	case opts.Exec != "" && (opts.Payload == "" || opts.Field == ""):
		return UsageErrorf("--exec needs --payload FILE and --field NAME (the payload field to replace)")
	case opts.Exec == "" && (opts.Payload != "" || changed("timeout")):
		return UsageErrorf("--payload and --timeout only apply with --exec")
	case opts.SchemaFile != "" && opts.Field == "":
		return UsageErrorf("--schema needs --field NAME (the field whose rule to use)")
	case opts.Timeout <= 0:
		return UsageErrorf("--timeout must be positive")
	}
	if _, err := pixkey.ParseKind(opts.Type); err != nil {
		return UsageErrorf("--type: %v", err)
	}
	return nil
}

func normcheckRun(opts *NormcheckOptions) error {
	kind, err := pixkey.ParseKind(opts.Type)
	if err != nil {
		return UsageErrorf("--type: %v", err)
	}
	var norm *normcheck.Normalizer
	if opts.Exec != "" {
		norm, err = execNormalizer(opts)
	} else {
		norm, err = ruleNormalizer(opts, kind)
	}
	if err != nil {
		return err
	}
	in := onSignals(context.Background())
	defer in.stop()
	report, err := normcheck.Check(in.ctx, kind, opts.Values, norm)
	if ierr := in.err("stopped the --exec command and everything it started"); ierr != nil {
		return ierr
	}
	var cmdErr *normcheck.CommandError
	if errors.As(err, &cmdErr) {
		return UsageErrorf("--exec on spelling %q of value %d: %v", cmdErr.Form, cmdErr.Value, cmdErr.Err)
	}
	if err != nil {
		return UsageErrorf("%v", err)
	}
	if opts.Format == "json" {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return err
		}
	} else {
		writeNormcheckText(opts.IO, kind, norm, report)
	}
	if !report.OK {
		return ErrFindings
	}
	return nil
}

// ruleNormalizer resolves --rule, --schema/--action/--field or the default
// schema's chave_pix_destino to a rule.
func ruleNormalizer(opts *NormcheckOptions, kind pixkey.Kind) (*normcheck.Normalizer, error) {
	info := normcheck.Info{Rule: opts.Rule}
	describe := "rule " + opts.Rule
	if opts.Rule == "" {
		schema := derive.DefaultSchema()
		info.Schema, describe = "default", "default schema"
		if opts.SchemaFile != "" {
			s, err := loadSchema(opts.SchemaFile, opts.MaxInput)
			if err != nil {
				return nil, UsageErrorf("--schema: %v", err)
			}
			schema, info.Schema, describe = s, opts.SchemaFile, "schema "+opts.SchemaFile
		}
		action, field := opts.Action, opts.Field
		if field == "" {
			field = defaultNormcheckField
			if action == "" {
				action = defaultNormcheckAction
			}
		}
		a, f, err := findSchemaField(schema, action, field)
		if err != nil {
			return nil, err
		}
		info.Rule, info.SchemaVersion, info.Action, info.Field = f.Rule, schema.Version, a.Name, f.Name
		describe = fmt.Sprintf("rule %s (%s v%d, %s → %s)", f.Rule, describe, schema.Version, a.Name, f.Name)
	}
	if !slices.Contains(derive.RuleNames(), info.Rule) {
		return nil, UsageErrorf("unknown rule %q (known: %s)", info.Rule, strings.Join(derive.RuleNames(), ", "))
	}
	return normcheck.RuleNormalizer(info, describe, kind), nil
}

// findSchemaField finds field in action, or in the only action that has it
// when action is empty.
func findSchemaField(s *derive.Schema, action, field string) (*derive.Action, *derive.Field, error) {
	var candidates []*derive.Action
	if action != "" {
		a, ok := s.Action(action)
		if !ok {
			return nil, nil, UsageErrorf("--action: the schema has no action %q (it has %s)", action, strings.Join(s.ActionNames(), ", "))
		}
		candidates = []*derive.Action{a}
	} else {
		for i := range s.Actions {
			candidates = append(candidates, &s.Actions[i])
		}
	}
	var found []*derive.Action
	var fields []*derive.Field
	for _, a := range candidates {
		for i := range a.Fields {
			if a.Fields[i].Name == field {
				found, fields = append(found, a), append(fields, &a.Fields[i])
			}
		}
	}
	switch {
	case len(found) == 0 && action != "":
		return nil, nil, UsageErrorf("--field: action %q has no field %q", action, field)
	case len(found) == 0:
		return nil, nil, UsageErrorf("--field: no action of the schema has a field %q", field)
	case len(found) > 1:
		names := make([]string, len(found))
		for i, a := range found {
			names[i] = a.Name
		}
		return nil, nil, UsageErrorf("--field %q is in several actions (%s): pass --action", field, strings.Join(names, ", "))
	}
	return found[0], fields[0], nil
}

func writeNormcheckText(ios *iostreams.IOStreams, kind pixkey.Kind, norm *normcheck.Normalizer, r *normcheck.Report) {
	out := ios.Out
	st := ui.New(out, ios.ColorEnabled())
	hinted := false
	for i, v := range r.Values {
		if i > 0 {
			fmt.Fprintln(out)
		}
		// The value, paths and names are the user's input: shown, never
		// obeyed by the terminal.
		fmt.Fprintf(out, "%s %s — %s\n", st.Title.Render(kind.String()), st.Code.Render(procgroup.Escaped(v.Value)), procgroup.Escaped(norm.Describe))
		if !v.Valid {
			fmt.Fprintf(out, "%s %s\n", st.Fail.Render(st.FailMark), procgroup.Escaped(v.Error))
			continue
		}
		writeSpellingTable(out, st, norm, v)
		for _, c := range v.Checks {
			mark, style := st.PassMark, st.Pass
			if !c.OK {
				mark, style = st.FailMark, st.Fail
			}
			fmt.Fprintf(out, "%s %s: %s (input %s, key %s)\n", style.Render(mark), c.Name, c.Detail, strconv.Quote(c.Input), procgroup.OneLine(c.Key))
		}
		if v.Agree {
			fmt.Fprintf(out, "%s all %d spellings normalize to %s\n", st.Pass.Render(st.PassMark), len(v.Spellings), strconv.Quote(v.Reference))
			continue
		}
		quoted := make([]string, len(v.Different))
		for j, d := range v.Different {
			quoted[j] = quoteVisible(d)
		}
		fmt.Fprintf(out, "%s %d of %d spellings normalize differently from the value as given (%s): %s\n",
			st.Fail.Render(st.FailMark), len(v.Different), len(v.Spellings), strconv.Quote(v.Reference), strings.Join(quoted, ", "))
		if kind == pixkey.Phone && norm.Info.Rule == "pix_key" && !hinted {
			hinted = true
			fmt.Fprintln(ios.ErrOut, "hint: pix_key keeps a phone's digits as written, so +55 and the trunk 0 change the key; "+
				"normalize phones with the phone_e164 rule (or pix_key_typed) in a schema with a new rules version")
		}
	}
}

// quoteVisible quotes s like strconv.Quote and also escapes what would
// still be invisible on a terminal: combining marks (so an NFD "é" shows as
// e\u0301) and format characters.
func quoteVisible(s string) string {
	var b strings.Builder
	for _, r := range strconv.Quote(s) {
		if unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func writeSpellingTable(out io.Writer, st *ui.Styles, norm *normcheck.Normalizer, v normcheck.ValueReport) {
	normalizedHeader := "NORMALIZED"
	if norm.Audits {
		normalizedHeader = "KEY"
	}
	header := []string{"SPELLING", normalizedHeader, "RESULT", "FORM"}
	rows := make([][]string, len(v.Spellings))
	for i, s := range v.Spellings {
		// A key command's output is shown, never obeyed: no escapes.
		normalized := procgroup.OneLine(s.Normalized)
		if s.Error != "" {
			normalized = "error: " + procgroup.OneLine(s.Error)
		}
		result := st.Pass.Render("same")
		if !s.Same {
			result = st.Fail.Render("different")
		}
		rows[i] = []string{quoteVisible(s.Spelling), st.Code.Render(normalized), result, st.Muted.Render(s.Form)}
	}
	widths := make([]int, len(header))
	for c, h := range header {
		widths[c] = len(h)
		for _, row := range rows {
			widths[c] = max(widths[c], lipgloss.Width(row[c]))
		}
	}
	writeRow := func(cells []string) {
		var b strings.Builder
		b.WriteString("  ")
		for c, cell := range cells {
			b.WriteString(cell)
			if c < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[c]-lipgloss.Width(cell)+2))
			}
		}
		fmt.Fprintln(out, b.String())
	}
	styled := make([]string, len(header))
	for c, h := range header {
		styled[c] = st.Header.Render(h)
	}
	writeRow(styled)
	for _, row := range rows {
		writeRow(row)
	}
}
