package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/idemcheck/idemcheck/internal/input"
	"github.com/idemcheck/idemcheck/internal/iostreams"
	"github.com/idemcheck/idemcheck/internal/ui"
	"github.com/idemcheck/idemcheck/restarttest"
	"github.com/idemcheck/idemcheck/restarttest/htmlreport"
	"github.com/idemcheck/idemcheck/restarttest/pgembed"
	"github.com/idemcheck/idemcheck/restarttest/textreport"
)

// RestartTestOptions are the parsed flags of `idemcheck restart-test`.
type RestartTestOptions struct {
	IO *iostreams.IOStreams

	Handler          string
	Deliver          string
	MessageFile      string
	SetupFile        string
	ModelRepliesFile string
	EffectSQL        []string
	EnvelopeFields   []string
	TenantFields     []string
	KillAt           []string
	Rounds           int
	Seed             int64
	SeedSet          bool
	RoundsSet        bool
	MaxAttempts      int
	Timeout          time.Duration
	Backoff          time.Duration
	RoundTimeout     time.Duration
	ProviderFault    string
	DSN              string
	AllowRemote      bool
	Keep             bool
	Format           string
	MaxInput         input.Size // cap of --message, --setup and --model-replies
	Report           string     // --report: the HTML file

	ClientKey       bool
	ClientKeyHeader string
	ClientHeaders   []string
	RequireKey      bool
	Queue           string
	Subject         string
	AckWait         time.Duration
	NATSPush        bool

	// Context, when set, replaces the interrupt-aware background context.
	Context context.Context
}

// NewCmdRestartTest builds `idemcheck restart-test`.
func NewCmdRestartTest(ios *iostreams.IOStreams, runF func(*RestartTestOptions) error) *cobra.Command {
	opts := &RestartTestOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "restart-test --handler CMD --message FILE [--setup FILE] [flags]",
		Short: "Kill a handler mid-flight, redeliver, and check the effect happened exactly once",
		Long: `Run your handler (any language) against a real PostgreSQL and a fake payment
provider, kill it at the points where real crashes happen, redeliver the same
message, and check that the effect happened exactly once.

The handler runs with sh -c in its own process group, once per delivery, with
the message on stdin; exit 0 acknowledges it. With --deliver it is a server:
idemcheck waits for the port, POSTs the message, and a 2xx acknowledges it;
with --client-key idemcheck is the API's client under the Idempotency-Key
contract and checks it. With --deliver amqp://… or nats://… it is your
consumer: idemcheck publishes, the broker redelivers after a kill, and
acknowledged is what the broker says.
It gets DATABASE_URL (search_path set to a fresh schema), PGHOST PGPORT PGUSER
PGDATABASE PGOPTIONS, PROVIDER_URL, MODEL_URL (with --model-replies) and
IDEMPOTENCY_HMAC_KEY (a test secret). The database variables name a proxy on
loopback (plaintext) that relays to the database and sees every commit.

Kill points: request[:K], response[:K], after-response[:K] (around the K-th
effect request of an attempt; bare means K=1), db-write:N, db-commit-lost:N,
time:DURATION, concurrent:N, resend, respell, provider-forgets, random (with
--rounds and --seed), none. Without --kill-at: a clean round, then request:K,
response:K, after-response:K for every effect request and db-write:N for every
write the clean round made, resend when the message has an envelope field,
respell when it has a value to spell another way, provider-forgets when the
clean round made an effect request, and concurrent:2.

resend delivers the same message again after it was acknowledged, with its
envelope fields (--envelope-field) replaced by fresh values: a key that
follows the transport's message id charges twice there. respell re-sends it
so, and spelled another way (members reordered, a CPF, CNPJ, phone, e-mail or
Pix key in another spelling, an amount as 150, 150.0 or "150.00"), while the
first delivery is stuck after its charge: a key over the text as spelled
charges twice. provider-forgets delivers it again after it was acknowledged
and the provider forgot its keys: a handler that only the provider's replay
saved charges twice.

--effect-sql QUERY counts an effect in the handler's own tables (an order
row) after every round; each round must count what the clean round counted.
Without an effect request and without --effect-sql there is nothing to judge
(exit 2).

Without --dsn, DATABASE_URL or PG* variables, a throwaway PostgreSQL is started
from the installed server binaries.

Exit codes: 0 all rounds passed, 1 a check failed, 2 harness or environment error.`,
		Example: `  idemcheck restart-test --handler 'go run ./examples/demo' --message examples/demo/message.json --kill-at response
  idemcheck restart-test --handler 'go run ./testdata/restart/intent' --setup testdata/restart/intent/setup.sql --message testdata/restart/message.json --kill-at none --kill-at response --format json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			opts.SeedSet = c.Flags().Changed("seed")
			opts.RoundsSet = c.Flags().Changed("rounds")
			if runF != nil {
				return runF(opts)
			}
			return restartTestRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Handler, "handler", "", "handler `COMMAND`, run with sh -c (required)")
	f.StringVar(&opts.Deliver, "deliver", "", "POST the message to this `URL` of the handler's server instead of stdin")
	f.StringVar(&opts.MessageFile, "message", "", "message `FILE` delivered unchanged, - for stdin (required)")
	f.StringVar(&opts.SetupFile, "setup", "", "SQL `FILE` applied inside the fresh schema every round")
	f.StringVar(&opts.ModelRepliesFile, "model-replies", "", "`FILE` of fake model replies, one per line, cycling (enables MODEL_URL)")
	f.StringArrayVar(&opts.KillAt, "kill-at", nil, "the kill `POINT` of a round, repeatable (default: the learned plan)")
	f.StringArrayVar(&opts.EnvelopeFields, "envelope-field", nil, "JSON `PATH` of a transport id in the message that the resend round renews, repeatable (default: top-level message_id, messageId, MessageId, event_id, eventId, id, and below it a message or delivery id, or an event id or id inside meta, event or message)")
	f.StringArrayVar(&opts.TenantFields, "tenant-field", nil, "JSON `PATH` of the message's tenant, which the second-tenant round changes, repeatable (default: members named tenant, merchant, account, org, company, workspace, shop, store or seller, with or without _id, at any depth)")
	f.StringArrayVar(&opts.EffectSQL, "effect-sql", nil, "a `QUERY` returning one integer that counts an effect in the handler's own tables, run in the round's schema after each round; must equal the clean round's count (repeatable)")
	f.IntVar(&opts.Rounds, "rounds", 5, "run `N` random rounds with --kill-at random")
	f.Int64Var(&opts.Seed, "seed", 0, "`SEED` of --kill-at random (default: from the clock, printed)")
	f.IntVar(&opts.MaxAttempts, "max-attempts", 3, "deliver the message up to `N` times per round until acknowledged")
	f.DurationVar(&opts.Timeout, "timeout", 30*time.Second, "time limit of one attempt, a `DURATION`")
	f.DurationVar(&opts.Backoff, "backoff", 100*time.Millisecond, "wait this `DURATION` before the first redelivery (doubles after, up to 5s)")
	f.DurationVar(&opts.RoundTimeout, "round-timeout", restarttest.DefaultRoundTimeout, "stop a round whose deliveries, all attempts and backoffs included, take longer than `DURATION` (exit 2; 0 is the default)")
	f.StringVar(&opts.ProviderFault, "provider-fault", "", "fake provider `FAULT`: 500-once, delay:DURATION, or both comma-separated")
	f.StringVar(&opts.DSN, "dsn", "", "PostgreSQL connection `URL` (default DATABASE_URL, PG* variables, else an embedded server)")
	f.BoolVar(&opts.AllowRemote, "allow-remote", false, "allow a database that is not on loopback or a unix socket")
	f.BoolVar(&opts.Keep, "keep", false, "keep the schema after the run, to inspect it")
	f.StringVar(&opts.Format, "format", "text", "output `FORMAT`: text or json")
	addMaxInputFlag(f, &opts.MaxInput)
	f.StringVar(&opts.Report, "report", "", "also write the run as one self-contained HTML `FILE`: a timeline per round, each failing check where it broke")
	f.BoolVar(&opts.ClientKey, "client-key", false, "act as the API's client: a fresh Idempotency-Key per request, the same on every retry, and probe the contract (http:// --deliver)")
	f.StringVar(&opts.ClientKeyHeader, "client-key-header", "Idempotency-Key", "`NAME` of the key header sent with --client-key")
	f.StringArrayVar(&opts.ClientHeaders, "client-header", nil, "a `HEADER` 'Name: Value' naming one client, repeatable; the first is sent with every delivery")
	f.BoolVar(&opts.RequireKey, "require-key", false, "with --client-key: a request without the key must be refused with 400")
	f.StringVar(&opts.Queue, "queue", "", "RabbitMQ `QUEUE` for an amqp:// --deliver (default: a fresh name per run)")
	f.StringVar(&opts.Subject, "subject", "", "NATS `SUBJECT` for a nats:// --deliver (default: a fresh subject per run)")
	f.DurationVar(&opts.AckWait, "ack-wait", time.Second, "broker delivery: how long after its consumer died JetStream redelivers (NATS AckWait), and how long an idle RabbitMQ consumer may hold the message unacknowledged, a `DURATION`")
	f.BoolVar(&opts.NATSPush, "nats-push", false, "with a nats:// --deliver: create a push consumer (NATS_DELIVER_SUBJECT, queue group NATS_CONSUMER) instead of a pull consumer")
	return cmd
}

// embeddedNote says that the run used the throwaway server.
const embeddedNote = "using an embedded PostgreSQL (a throwaway cluster, removed after the run): no --dsn, DATABASE_URL or PG* variable is set"

func restartTestRun(opts *RestartTestOptions) error {
	cfg, err := restartTestConfig(opts)
	if err != nil {
		return err
	}
	report, err := createReport(opts.Report)
	if err != nil {
		return err
	}
	defer report.discard()
	parent := opts.Context
	if parent == nil {
		parent = context.Background()
	}
	// A closed stdout (| head) must end in cleanup, not in death by SIGPIPE
	// with the embedded server's directory left behind.
	defer catchSIGPIPE()()
	in := onSignals(parent, append(stopSignals, syscall.SIGQUIT)...)
	defer in.stop()
	ctx := in.ctx
	const stopped = "stopped the handlers and everything they started, dropped the schema"
	progress := newProgress(opts.IO)
	defer progress.clear()

	if cfg.DSN == "" {
		progress.show("starting an embedded PostgreSQL…")
		pg, err := pgembed.Start(ctx)
		if err != nil {
			if ierr := in.err("stopped the embedded PostgreSQL"); ierr != nil {
				return ierr
			}
			if ctx.Err() != nil {
				return UsageErrorf("interrupted")
			}
			return UsageErrorf("%v", err)
		}
		defer pg.Stop()
		cfg.DSN = pg.DSN()
		// Said on stderr in every case: a log of a piped or CI run would
		// otherwise not tell which database the verdict was reached on.
		progress.clear()
		fmt.Fprintln(opts.IO.ErrOut, "note: "+embeddedNote)
	}
	cfg.Progress = func(round, total int, label string) {
		progress.show(fmt.Sprintf("round %d/%d: %s…", round, total, label))
	}
	cfg.Notice = func(msg string) { fmt.Fprintln(opts.IO.ErrOut, "note: "+msg) }
	rep, err := restarttest.Run(ctx, cfg)
	progress.clear()
	if err != nil && ctx.Err() != nil && rep != nil && rep.Verdict == restarttest.VerdictInterrupted {
		// The rounds that finished before the stop are not lost: they are
		// reported, under a verdict that claims nothing of the rest.
		if werr := writeRestartReports(opts, report, rep); werr != nil {
			return werr
		}
	}
	if ierr := in.err(stopped); ierr != nil {
		return ierr
	}
	if err != nil {
		if ctx.Err() != nil {
			return UsageErrorf("interrupted: handlers stopped, schema dropped")
		}
		return restartEnvError(opts.IO.ErrOut, err)
	}
	if err := writeRestartReports(opts, report, rep); err != nil {
		return err
	}
	switch rep.Verdict {
	case restarttest.VerdictPass:
		return nil
	case restarttest.VerdictIncomplete:
		// The report is out; it could not test what it was asked to.
		return &ExitError{Code: ExitUsage}
	}
	return ErrFindings
}

// restartEnvError reports a run without a verdict: one line, then the end of
// the handler's output when the handler failing is the reason.
func restartEnvError(w io.Writer, err error) error {
	var env *restarttest.EnvError
	if !errors.As(err, &env) || len(env.Tail) == 0 {
		return UsageErrorf("%v", err)
	}
	fmt.Fprintf(w, "idemcheck: %s\n", oneLine(err.Error()))
	fmt.Fprintln(w, "the handler's output ends with:")
	for _, line := range env.Tail {
		fmt.Fprintf(w, "  | %s\n", line)
	}
	return &ExitError{Code: ExitUsage}
}

// writeRestartReports writes rep to stdout, and to the HTML report when
// --report names one.
func writeRestartReports(opts *RestartTestOptions, html *htmlReport, rep *restarttest.Report) error {
	if err := writeRestartReport(opts, rep); err != nil {
		return err
	}
	if err := html.write(rep); err != nil {
		return err
	}
	if html != nil {
		fmt.Fprintf(opts.IO.ErrOut, "wrote the HTML report to %s\n", html.name)
	}
	return nil
}

func writeRestartReport(opts *RestartTestOptions, rep *restarttest.Report) error {
	if opts.Format == "json" {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	return textreport.Write(opts.IO.Out, rep, restartTextStyle(ui.New(opts.IO.Out, opts.IO.ColorEnabled())))
}

// restartTestConfig validates the flags and reads the files.
func restartTestConfig(opts *RestartTestOptions) (restarttest.Config, error) {
	var cfg restarttest.Config
	switch {
	case strings.TrimSpace(opts.Handler) == "":
		return cfg, UsageErrorf("--handler is required: the command that handles one delivery")
	case opts.MessageFile == "":
		return cfg, UsageErrorf("--message is required: the file delivered to the handler")
	case opts.Format != "text" && opts.Format != "json":
		return cfg, UsageErrorf("unknown --format %q: want text or json", opts.Format)
	case opts.MaxAttempts < 1:
		return cfg, UsageErrorf("--max-attempts must be at least 1")
	case opts.Timeout <= 0:
		return cfg, UsageErrorf("--timeout must be positive")
	case opts.Backoff < 0:
		return cfg, UsageErrorf("--backoff must not be negative")
	case opts.RoundTimeout < 0:
		return cfg, UsageErrorf("--round-timeout must be positive")
	case opts.Rounds < 1:
		return cfg, UsageErrorf("--rounds must be at least 1")
	}
	msg, err := readInput(opts.IO.In, opts.MessageFile, opts.MaxInput)
	if err != nil {
		return cfg, UsageErrorf("--message: %v", err)
	}
	if len(msg) == 0 {
		return cfg, UsageErrorf("--message: %s is empty: nothing to deliver", messageName(opts.MessageFile))
	}
	cfg = restarttest.Config{
		Handler:        opts.Handler,
		Message:        msg,
		EffectSQL:      opts.EffectSQL,
		EnvelopeFields: opts.EnvelopeFields,
		TenantFields:   opts.TenantFields,
		Rounds:         opts.Rounds,
		Seed:           opts.Seed,
		MaxAttempts:    opts.MaxAttempts,
		Timeout:        opts.Timeout,
		Backoff:        opts.Backoff,
		RoundTimeout:   opts.RoundTimeout,
		Keep:           opts.Keep,
	}
	if opts.Backoff == 0 {
		cfg.Backoff = time.Millisecond
	}
	if opts.SetupFile != "" {
		setup, err := readFile(opts.SetupFile, opts.MaxInput)
		if err != nil {
			return cfg, UsageErrorf("--setup: %v", err)
		}
		cfg.Setup = string(setup)
	}
	if opts.ModelRepliesFile != "" {
		data, err := readFile(opts.ModelRepliesFile, opts.MaxInput)
		if err != nil {
			return cfg, UsageErrorf("--model-replies: %v", err)
		}
		cfg.ModelReplies = restarttest.ParseModelReplies(data)
		if len(cfg.ModelReplies) == 0 {
			return cfg, UsageErrorf("--model-replies: %s has no reply lines", opts.ModelRepliesFile)
		}
	}
	for _, q := range opts.EffectSQL {
		if strings.TrimSpace(q) == "" {
			return cfg, UsageErrorf("--effect-sql is empty: give a query returning one integer, e.g. 'select count(*) from orders'")
		}
	}
	random := false
	for _, s := range opts.KillAt {
		kp, err := restarttest.ParseKillPoint(s)
		if err != nil {
			return cfg, UsageErrorf("--kill-at: %v", err)
		}
		random = random || kp.Kind == restarttest.KillRandom
		cfg.KillPoints = append(cfg.KillPoints, kp)
	}
	if !random && (opts.RoundsSet || opts.SeedSet) {
		return cfg, UsageErrorf("--rounds and --seed apply to --kill-at random, which is not among the kill points")
	}
	if random && !opts.SeedSet {
		cfg.Seed = time.Now().UnixNano() % 1_000_000
	}
	if cfg.Fault, err = restarttest.ParseProviderFault(opts.ProviderFault); err != nil {
		return cfg, UsageErrorf("--provider-fault: %v", err)
	}
	if err := deliveryConfig(opts, &cfg); err != nil {
		return cfg, err
	}
	dsn, fromEnv := opts.DSN, opts.DSN != ""
	if !fromEnv {
		dsn, fromEnv = restarttest.DSNFromEnv()
	}
	if fromEnv {
		if err := restarttest.CheckLoopback(dsn); err != nil && !opts.AllowRemote {
			return cfg, UsageErrorf("%v", err)
		}
		if dsn == "" {
			// Only PG* variables: spell them out so the harness and the
			// handler see the same server.
			dsn = "postgres://"
		}
		cfg.DSN = dsn
	}
	return cfg, nil
}

func messageName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}

// progress draws one rewritable line on stderr when it is a terminal.
type progress struct {
	w     io.Writer
	on    bool
	drawn bool
}

func newProgress(ios *iostreams.IOStreams) *progress {
	return &progress{w: ios.ErrOut, on: ios.IsStderrTTY()}
}

func (p *progress) show(s string) {
	if !p.on {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", s)
	p.drawn = true
}

func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// restartTextStyle decorates restart-test's text report with the ui styles.
func restartTextStyle(st *ui.Styles) textreport.Style {
	return func(p textreport.Part, text string) string {
		switch p {
		case textreport.PartTitle:
			return st.Title.Render(text)
		case textreport.PartCode:
			return st.Code.Render(text)
		case textreport.PartMuted:
			return st.Muted.Render(text)
		case textreport.PartWarn:
			return st.Warn.Render(text)
		case textreport.PartPass:
			return st.Pass.Render(text)
		case textreport.PartFail:
			return st.Fail.Render(text)
		case textreport.PartStrong:
			return st.Bold.Render(text)
		case textreport.PartPassSummary:
			return st.Pass.Bold(true).Render(text)
		}
		return text
	}
}

// htmlReport is the --report file, created before the run so that a path
// it cannot write fails at once, not after the rounds.
type htmlReport struct {
	name    string
	f       *os.File
	written bool
}

// createReport creates the --report file; nil without --report.
func createReport(name string) (*htmlReport, error) {
	if name == "" {
		return nil, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, UsageErrorf("--report: %v", fileError(err))
	}
	return &htmlReport{name: name, f: f}, nil
}

// write renders the run into the file.
func (r *htmlReport) write(rep *restarttest.Report) error {
	if r == nil {
		return nil
	}
	err := htmlreport.Write(r.f, rep)
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return UsageErrorf("--report: write %s: %v", r.name, fileError(err))
	}
	r.written = true
	return nil
}

// discard removes the file of a run that ended without a verdict: no
// report is better than an empty one.
func (r *htmlReport) discard() {
	if r == nil || r.written {
		return
	}
	r.f.Close()
	os.Remove(r.name)
}

// fileError says which file and what went wrong, without the operation's
// Go wording ("open …: no such file or directory" → "…: no such file or
// directory").
func fileError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}
