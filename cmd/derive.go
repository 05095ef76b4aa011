package cmd

import (
	"bytes"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/derive"
	"github.com/idemcheck/idemcheck/internal/input"
	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/internal/ui"
)

// DeriveOptions are the parsed flags of `idemcheck derive`.
type DeriveOptions struct {
	IO *iostreams.IOStreams
	// Getenv reads the environment; tests replace it.
	Getenv func(string) string

	Tenant      string
	TenantSet   bool
	Action      string
	ActionSet   bool
	PayloadPath string // FILE or "-" for stdin
	Sets        []string
	Format      string // text or json
	Explain     bool
	Verify      string
	Batch       bool
	Workers     int
	SchemaPath  string
	PrintSchema bool
	HMACKeyFile string
	// HMACKeyFileSet tells an explicit empty --hmac-key-file from none.
	HMACKeyFileSet bool
	MaxInput       input.Size // cap of --payload, --schema and --hmac-key-file
}

// NewCmdDerive builds `idemcheck derive`.
func NewCmdDerive(ios *iostreams.IOStreams, runF func(*DeriveOptions) error) *cobra.Command {
	opts := &DeriveOptions{IO: ios, Getenv: os.Getenv}
	cmd := &cobra.Command{
		Use:   "derive",
		Short: "Derive, explain and verify idempotency keys exactly as the reference function does",
		Long: `Derive the idempotency key of one intent, explain it, verify a key, or derive
keys for a JSONL stream, byte-identical to the reference Python function:
HMAC-SHA256 over a canonical JSON of the schema's fields, each normalized by
its rule.

The secret comes from $IDEMPOTENCY_HMAC_KEY or --hmac-key-file; it is never a
flag value and never printed.

Exit codes: 0 ok, 1 derivation failed or key mismatch (or a failed batch
line), 2 usage or environment error.`,
		Example: `  export IDEMPOTENCY_HMAC_KEY=demo-secret-not-for-production
  idemcheck derive --tenant acme --action pix.cobranca --payload examples/derive/intent.json
  idemcheck derive --tenant acme --action email.cobranca --set cliente_id=42 --set referencia_intencao=NF-1 --set template=LEMBRETE --explain
  idemcheck derive --tenant acme --action pix.cobranca --payload examples/derive/intent.json --verify e78733073e4e38a665c9a77d4b477b1a32b0b6e25d3af4f492371885d682f8f3
  idemcheck derive --batch < examples/derive/intents.jsonl   # exit 1: line 3 has a sub-cent amount
  idemcheck derive --print-schema`,
		Args: noDeriveArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			opts.TenantSet = c.Flags().Changed("tenant")
			opts.ActionSet = c.Flags().Changed("action")
			opts.HMACKeyFileSet = c.Flags().Changed("hmac-key-file")
			if err := opts.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return deriveRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Tenant, "tenant", "", "the intent's `TENANT` (may be empty, but must be given)")
	f.StringVar(&opts.Action, "action", "", "the intent's `ACTION`, e.g. pix.cobranca")
	f.StringVar(&opts.PayloadPath, "payload", "", "JSON object payload: a `FILE`, or - for stdin")
	f.StringArrayVar(&opts.Sets, "set", nil, "payload field as `FIELD=VALUE` (a string; repeatable)")
	f.StringVar(&opts.Format, "format", "text", "output `FORMAT`: text or json")
	f.BoolVar(&opts.Explain, "explain", false, "show each field raw and normalized, the canonical JSON and ignored fields")
	f.StringVar(&opts.Verify, "verify", "", "compare the derived key with `HEX`: exit 0 when equal, 1 when not")
	f.BoolVar(&opts.Batch, "batch", false, "read JSONL intents on stdin, write one JSON line per input line")
	f.IntVar(&opts.Workers, "workers", 0, "`N` batch worker goroutines (default: number of CPUs)")
	f.StringVar(&opts.SchemaPath, "schema", "", "YAML schema `FILE` instead of the default (version 1)")
	f.BoolVar(&opts.PrintSchema, "print-schema", false, "print the schema in use as YAML and exit")
	f.StringVar(&opts.HMACKeyFile, "hmac-key-file", "", "read the HMAC secret from `PATH` (one trailing newline trimmed)")
	addMaxInputFlag(f, &opts.MaxInput)
	_ = f.MarkHidden("workers")
	return cmd
}

// noDeriveArgs refuses positional arguments without echoing them, as
// cobra.NoArgs would: a secret pasted on the command line must not be printed.
func noDeriveArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return UsageErrorf("derive takes no arguments (got %d); the secret comes from $%s or --hmac-key-file, the intent from flags", len(args), secretEnv)
	}
	return nil
}

// validate checks flag combinations before any input is read.
func (o *DeriveOptions) validate() error {
	if o.Format != "text" && o.Format != "json" {
		return UsageErrorf("--format must be text or json, not %q", o.Format)
	}
	if o.HMACKeyFileSet && o.HMACKeyFile == "" {
		return UsageErrorf("--hmac-key-file: empty path")
	}
	if o.Verify != "" {
		v := strings.ToLower(strings.TrimSpace(o.Verify))
		if len(v) != 64 || !isHex(v) {
			return UsageErrorf("--verify wants a 64-digit hex key")
		}
		o.Verify = v
	}
	if o.PrintSchema {
		return nil
	}
	if o.Batch {
		conflicts := []struct {
			flag string
			set  bool
		}{
			{"--tenant", o.TenantSet}, {"--action", o.ActionSet || o.Action != ""}, {"--payload", o.PayloadPath != ""},
			{"--set", len(o.Sets) > 0}, {"--verify", o.Verify != ""}, {"--explain", o.Explain},
		}
		for _, c := range conflicts {
			if c.set {
				return UsageErrorf("%s cannot be used with --batch (each line carries its own intent)", c.flag)
			}
		}
		return nil
	}
	if !o.TenantSet {
		return UsageErrorf("--tenant is required (or use --batch)")
	}
	// An explicit --action "" goes on to derive, which refuses it as an
	// unknown action, as a batch line with "action": "" is.
	if !o.ActionSet && o.Action == "" {
		return UsageErrorf("--action is required (or use --batch)")
	}

	if o.PayloadPath != "" && len(o.Sets) > 0 {
		return UsageErrorf("use either --payload or --set, not both")
	}
	if o.PayloadPath == "" && len(o.Sets) == 0 {
		return UsageErrorf("give the payload with --payload FILE|- or --set field=value")
	}
	return nil
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}

func deriveRun(opts *DeriveOptions) error {
	schema := derive.DefaultSchema()
	if opts.SchemaPath != "" {
		s, err := loadSchema(opts.SchemaPath, opts.MaxInput)
		if err != nil {
			return UsageErrorf("--schema: %v", err)
		}
		schema = s
	}
	if opts.PrintSchema {
		_, err := opts.IO.Out.Write(schema.YAML())
		return err
	}
	secret, err := readSecret(opts)
	if err != nil {
		return err
	}
	if opts.Batch {
		return deriveBatch(opts, schema, secret)
	}
	payload, err := readPayload(opts)
	if err != nil {
		return err
	}
	res, err := schema.Derive(secret, derive.Intent{Tenant: opts.Tenant, Action: opts.Action, Payload: payload})
	if err != nil {
		return deriveError(err)
	}
	match := opts.Verify == "" || subtle.ConstantTimeCompare([]byte(res.Key), []byte(opts.Verify)) == 1
	if opts.Format == "json" {
		err = writeDeriveJSON(opts, res, match)
	} else {
		err = writeDeriveText(opts, res, match)
	}
	if err != nil {
		return err
	}
	if !match {
		return ErrFindings
	}
	return nil
}

// deriveError is exit 1 when the rules refuse a value of a well-formed
// intent (a sub-cent amount, an invalid CPF: the data cannot be keyed), and
// exit 2 for input that is not an intent at all (not JSON, not an object,
// an unknown action, a missing field): bad input, as for every command.
// Every "invalid JSON" is exit 2, also those the parser refuses on purpose
// (invalid UTF-8, a lone surrogate, a member named twice, nesting deeper
// than 512 levels), which carry a refusal reason for --batch.
func deriveError(err error) error {
	var syntax *derive.SyntaxError
	if errors.As(err, &syntax) {
		return UsageErrorf("derive: %v", err)
	}
	if _, refused := derive.RefusalReason(err); refused {
		return FindingErrorf("derive: %v", err)
	}
	return UsageErrorf("derive: %v", err)
}

// readSecret takes the secret from --hmac-key-file, else the environment,
// and makes sure the output never shows it.
func readSecret(opts *DeriveOptions) ([]byte, error) {
	var secret []byte
	var err error
	if opts.HMACKeyFile != "" {
		secret, err = readKeyFile(opts.HMACKeyFile, int64(orDefault(opts.MaxInput)), opts.IO.ErrOut)
	} else {
		secret, err = envSecret(opts.Getenv)
	}
	if err != nil {
		return nil, err
	}
	opts.IO.HideSecret(string(secret))
	return secret, nil
}

func readPayload(opts *DeriveOptions) ([]byte, error) {
	if len(opts.Sets) > 0 {
		fields := make(map[string]string, len(opts.Sets))
		for _, kv := range opts.Sets {
			name, value, ok := strings.Cut(kv, "=")
			if !ok || name == "" {
				return nil, UsageErrorf("--set %q: want field=value", kv)
			}
			if _, dup := fields[name]; dup {
				return nil, UsageErrorf("--set: field %q given twice", name)
			}
			fields[name] = value
		}
		payload, err := derive.AppendCanonical(nil, fields)
		if err != nil {
			return nil, UsageErrorf("--set: %v", err)
		}
		return payload, nil
	}
	data, err := readInput(opts.IO.In, opts.PayloadPath, opts.MaxInput)
	if err != nil {
		return nil, UsageErrorf("--payload: %v", err)
	}
	return data, nil
}

// deriveJSON is the documented --format json shape.
type deriveJSON struct {
	Key       string            `json:"key"`
	Tenant    string            `json:"tenant"`
	Action    string            `json:"action"`
	Version   int               `json:"version"`
	Fields    map[string]string `json:"fields"`
	Ignored   []string          `json:"ignored"`
	Warnings  []warningJSON     `json:"warnings,omitempty"`
	Canonical string            `json:"canonical,omitempty"`
	Explain   []explainJSON     `json:"explain,omitempty"`
	Expected  string            `json:"expected,omitempty"`
	Match     *bool             `json:"match,omitempty"`
}

type warningJSON struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

type explainJSON struct {
	Field      string          `json:"field"`
	Rule       string          `json:"rule"`
	Raw        json.RawMessage `json:"raw"`
	Normalized string          `json:"normalized"`
}

func writeDeriveJSON(opts *DeriveOptions, res *derive.Result, match bool) error {
	out := deriveJSON{
		Key: res.Key, Tenant: res.Tenant, Action: res.Action, Version: res.Version,
		Fields: make(map[string]string, len(res.Fields)), Ignored: res.Ignored,
	}
	if out.Ignored == nil {
		out.Ignored = []string{}
	}
	for _, f := range res.Fields {
		out.Fields[f.Name] = f.Normalized
	}
	for _, w := range res.Warnings {
		out.Warnings = append(out.Warnings, warningJSON{Field: w.Field, Message: w.Message})
	}
	if opts.Explain {
		out.Canonical = string(res.Canonical)
		for _, f := range res.Fields {
			out.Explain = append(out.Explain, explainJSON{Field: f.Name, Rule: f.Rule, Raw: compactJSON(f.Raw), Normalized: f.Normalized})
		}
	}
	if opts.Verify != "" {
		out.Expected = opts.Verify
		out.Match = &match
	}
	enc := json.NewEncoder(opts.IO.Out)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

func writeDeriveText(opts *DeriveOptions, res *derive.Result, match bool) error {
	w := opts.IO.Out
	st := ui.New(w, opts.IO.ColorEnabled())
	if opts.Explain {
		writeExplain(w, st, res)
	} else {
		// The key stays the only line on stdout.
		for _, warning := range res.Warnings {
			fmt.Fprintln(opts.IO.ErrOut, "warning: "+warning.String())
		}
	}
	if opts.Verify == "" {
		if opts.Explain {
			fmt.Fprintf(w, "%s %s\n", st.Header.Render("key:"), st.Code.Render(res.Key))
		} else {
			fmt.Fprintln(w, res.Key)
		}
		return nil
	}
	if match {
		fmt.Fprintf(w, "%s key matches: %s\n", st.Pass.Render(st.PassMark), st.Code.Render(res.Key))
		return nil
	}
	fmt.Fprintf(w, "%s key mismatch\n  expected: %s\n  derived:  %s\n",
		st.Fail.Render(st.FailMark), st.Code.Render(opts.Verify), st.Code.Render(res.Key))
	return nil
}

// writeExplain prints the field table, the canonical JSON and the payload
// fields that were left out of the key.
func writeExplain(w io.Writer, st *ui.Styles, res *derive.Result) {
	fmt.Fprintf(w, "%s\n", st.Title.Render(fmt.Sprintf("%s · tenant %s · schema v%d", res.Action, quoteForDisplay(res.Tenant), res.Version)))
	t := table.New().
		Border(lipgloss.NormalBorder()).
		BorderStyle(st.Border).
		Headers("field", "raw", "rule", "normalized").
		StyleFunc(func(row, col int) lipgloss.Style {
			if row == table.HeaderRow {
				return st.Header.Padding(0, 1)
			}
			if col == 3 {
				return st.Code.Padding(0, 1)
			}
			return lipgloss.NewStyle().Padding(0, 1)
		})
	for _, f := range res.Fields {
		t.Row(f.Name, displayCell(string(compactJSON(f.Raw))), f.Rule, quoteForDisplay(f.Normalized))
	}
	fmt.Fprintln(w, t.Render())
	fmt.Fprintf(w, "%s %s\n", st.Header.Render("canonical:"), st.Code.Render(displayCell(string(res.Canonical))))
	if len(res.Ignored) > 0 {
		fmt.Fprintf(w, "%s %s\n", st.Warn.Render("warning: payload fields not in the key (add them to the schema, with a new version, only on purpose):"),
			strings.Join(res.Ignored, ", "))
	}
	for _, warning := range res.Warnings {
		fmt.Fprintln(w, st.Warn.Render("warning: "+warning.String()))
	}
}

// quoteForDisplay shows a normalized string so that invisible characters
// (spaces, controls, U+2028) can be seen: as a JSON string.
func quoteForDisplay(s string) string {
	q, err := derive.CanonicalString(s)
	if err != nil {
		return fmt.Sprintf("%q", s)
	}
	return displayCell(q)
}

// displayCell replaces characters that would break a terminal table
// (line and paragraph separators, DEL) with visible escapes.
func displayCell(s string) string {
	return strings.NewReplacer("\u2028", `\u2028`, "\u2029", `\u2029`, "\x7f", `\u007f`, "\u0085", `\u0085`).Replace(s)
}

func deriveBatch(opts *DeriveOptions, schema *derive.Schema, secret []byte) error {
	stats, err := schema.RunBatch(secret, opts.IO.In, opts.IO.Out, derive.BatchOptions{Workers: opts.Workers, MaxLine: int(orDefault(opts.MaxInput))})
	var long *derive.LineTooLongError
	if errors.As(err, &long) {
		return UsageErrorf("batch: line %d is larger than %s; raise --%s if it is meant to be that big", long.Line, input.FormatSize(int64(long.Limit)), maxInputFlag)
	}
	if err != nil {
		return UsageErrorf("batch: %v", err)
	}
	if stats.Warned > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "warning: %d of %d lines: %s\n", stats.Warned, stats.Lines, stats.FirstWarning)
	}
	if stats.Failed > 0 {
		return FindingErrorf("batch: %d of %d lines failed", stats.Failed, stats.Lines)
	}
	return nil
}
