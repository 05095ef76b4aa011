package restarttest

// ReportVersion is the version of the JSON shape of Report.
const ReportVersion = 1

// Verdicts.
const (
	VerdictPass = "pass"
	VerdictFail = "fail"
	// VerdictIncomplete: no round failed, but some round's kill point was
	// never reached, so the restart it names was not tested.
	VerdictIncomplete = "incomplete"
	// VerdictInterrupted: the run was stopped (a signal, a cancelled
	// context) after some rounds finished; the report holds those, and
	// the rounds it never ran tested nothing.
	VerdictInterrupted = "interrupted"
)

// Report is the whole run; its JSON encoding is the `--format json` output.
type Report struct {
	Version   int    `json:"version"`
	Verdict   string `json:"verdict"` // pass, fail, incomplete or interrupted
	Summary   string `json:"summary"` // the last line of the text output
	Handler   string `json:"handler"`
	Deliver   string `json:"deliver,omitempty"`
	ClientKey string `json:"client_key_header,omitempty"` // --client-key: the key's header
	Broker    string `json:"broker,omitempty"`            // broker delivery: the queue or consumer
	Schema    string `json:"schema"`
	Kept      bool   `json:"schema_kept"`
	// SchemaCheck is "checked" when changes outside the schema are
	// detected (a run that made any exits 2 instead of reporting), else
	// why they are not.
	SchemaCheck string `json:"schema_check"`
	Seed        *int64 `json:"seed,omitempty"`
	// EnvelopeFields are the message's transport ids the resend round
	// renews; empty when there is no resend round.
	EnvelopeFields []string `json:"envelope_fields,omitempty"`
	// TenantFields are the message's tenant fields the second-tenant round
	// changed.
	TenantFields []string `json:"tenant_fields,omitempty"`
	Learned      Learned  `json:"learned"`
	RoundsTotal  int      `json:"rounds_total"`
	RoundsFailed int      `json:"rounds_failed"`
	Rounds       []Round  `json:"rounds"`
}

// Learned is what the clean round saw a successful delivery do.
type Learned struct {
	Writes         int `json:"writes"`          // committed writing transactions
	EffectRequests int `json:"effect_requests"` // POSTs to the provider
	// RequestsPerAttempt is the most effect requests one attempt made: the
	// default plan kills around each of them (request:K, response:K, …).
	RequestsPerAttempt int      `json:"requests_per_attempt"`
	Endpoints          []string `json:"endpoints"` // "POST /v1/charges"
	// LocalEffects is what each --effect-sql query counted after the clean
	// round: every other round must count the same.
	LocalEffects []LocalEffect `json:"local_effects,omitempty"`
}

// Round is one fresh schema, one kill point, deliveries until acknowledged,
// and the checks.
type Round struct {
	Index       int    `json:"index"`
	KillPoint   string `json:"kill_point"`   // none, request, db-write:2, concurrent:2, ...
	KillReached bool   `json:"kill_reached"` // the handler was killed (or its commit's reply dropped) at the kill point
	Passed      bool   `json:"passed"`
	DurationMS  int64  `json:"duration_ms"`
	Writes      int    `json:"writes"` // committed writing transactions in the schema
	// CommitsMS are the times of those commits since the round started,
	// for the HTML report's timeline; not part of the JSON output.
	CommitsMS  []int64 `json:"-"`
	ModelCalls int     `json:"model_calls"`
	// EscapedProcesses counts handler processes found running outside the
	// handler's process group after the round (setsid, daemons); they were
	// killed.
	EscapedProcesses int `json:"escaped_processes"`
	// Rendezvous reports, in a concurrent round, whether the deliveries
	// were held at their first write and first effect request until all
	// had arrived, and released together.
	Rendezvous []Rendezvous `json:"rendezvous,omitempty"`
	// RaceNotRun says why a concurrent round over a broker never had its
	// copies handled at once (one consumer took them all, in turn): the
	// round tested no race, and does not pass.
	RaceNotRun string `json:"race_not_run,omitempty"`
	// Resent lists, in a resend round, the envelope fields the second
	// delivery carried with fresh values.
	Resent []EnvelopeChange `json:"resent,omitempty"`
	// Respelled lists, in a respell round, the values the re-sent message
	// spelled another way (its members are reordered too).
	Respelled      []EnvelopeChange `json:"respelled,omitempty"`
	Attempts       []Attempt        `json:"attempts"`
	EffectRequests []EffectRequest  `json:"effect_requests"`
	Effects        []EndpointTally  `json:"effects"`
	// LocalEffects are the --effect-sql counts after the round.
	LocalEffects []LocalEffect `json:"local_effects,omitempty"`
	Checks       []Check       `json:"checks"`
	// Probes are the requests idemcheck sent as the API's client to test
	// the Idempotency-Key contract (--client-key); not attempts.
	Probes []Probe `json:"probes,omitempty"`
}

// Attempt outcomes.
const (
	OutcomeAcked   = "acked"   // exit 0, or a 2xx answer in --deliver mode
	OutcomeFailed  = "failed"  // non-zero exit or non-2xx answer: not acknowledged
	OutcomeKilled  = "killed"  // killed at the round's kill point
	OutcomeTimeout = "timeout" // killed after --timeout
	OutcomeError   = "error"   // could not be started, or the server never listened
)

// Attempt is one delivery attempt of the message.
type Attempt struct {
	// Delivery is 1, or 1..N in concurrent rounds. With a broker it is
	// the consumer process the attempt ran in: the broker decides which
	// copy of the message each consumer gets.
	Delivery   int    `json:"delivery"`
	Index      int    `json:"attempt"`  // 1 is the first delivery, 2.. are redeliveries
	StartMS    int64  `json:"start_ms"` // since the round started
	DurationMS int64  `json:"duration_ms"`
	Outcome    string `json:"outcome"`
	ExitCode   *int   `json:"exit_code,omitempty"`   // stdin mode
	Signal     string `json:"signal,omitempty"`      // the signal that ended the handler
	HTTPStatus int    `json:"http_status,omitempty"` // --deliver mode
	// IdempotencyKey is the key idemcheck sent as the API's client
	// (--client-key); Response is the answer's body (capped).
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	Response       string `json:"response,omitempty"`
	KilledAt       string `json:"killed_at,omitempty"` // kill point or "timeout"
	FaultAt        string `json:"fault_at,omitempty"`  // db-commit-lost:N: the commit's reply was dropped, the handler not killed
	Writes         int    `json:"writes"`
	Error          string `json:"error,omitempty"`
	Stdout         string `json:"stdout_tail,omitempty"`
	Stderr         string `json:"stderr_tail,omitempty"`
	StdoutBytes    int64  `json:"stdout_bytes"`
	StderrBytes    int64  `json:"stderr_bytes"`
}

// Acked reports whether the attempt acknowledged the message.
func (a Attempt) Acked() bool { return a.Outcome == OutcomeAcked }

// EndpointTally is what happened at one provider endpoint in a round.
type EndpointTally struct {
	Endpoint string   `json:"endpoint"`
	Requests int      `json:"requests"`
	Executed int      `json:"executed"` // effects: must be exactly 1
	Keys     []string `json:"keys"`     // distinct Idempotency-Key values, in order of arrival
	Amounts  []string `json:"amounts"`  // amounts of the executed requests
}

// Check names, part of the JSON output.
const (
	CheckKeyPresent    = "key-present"
	CheckKeyStable     = "key-stable"
	CheckPayloadFrozen = "payload-frozen"
	CheckEffectOnce    = "effect-once"
	CheckAcked         = "acked"
)

// Check is one verdict of a round. A check that had nothing to look at (no
// effect request to find a key in, no second request to compare) is not
// applicable: Applicable and Passed are both false and Detail says why.
type Check struct {
	Name       string `json:"name"`
	Applicable bool   `json:"applicable"`
	Passed     bool   `json:"passed"` // only ever true when Applicable
	Detail     string `json:"detail,omitempty"`
	// Difference is where a replayed answer first differs from the stored
	// one (replay-identical): "status 201 → 200", "JSON $.order_id: 1 → 2".
	Difference string `json:"difference,omitempty"`

	findings []finding // what the summary names
}

// Failed reports whether the check looked and found a failure.
func (c Check) Failed() bool { return c.Applicable && !c.Passed }
