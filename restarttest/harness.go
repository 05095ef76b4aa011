package restarttest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/idemcheck/idemcheck/restarttest/pgproxy"
)

// Config describes one restart-test run.
type Config struct {
	Handler  string   // shell command, run with `sh -c`
	Delivery Delivery // how the message reaches the handler (zero: on its stdin)
	Message  []byte   // delivered unchanged
	Setup    string   // SQL applied inside the fresh schema every round
	// EffectSQL are queries, each returning one integer, run in the round's
	// schema after every round: the handler's own effects (order rows),
	// which must count what they counted after the clean round.
	EffectSQL    []string
	ModelReplies []string // when non-nil, a fake model runs at MODEL_URL
	// EnvelopeFields are JSON paths of the transport's ids in the message
	// (default: DefaultEnvelopeFields present at the top level, and the nested ids nestedEnvelopePath names); the resend
	// round delivers the message again with fresh values there.
	EnvelopeFields []string
	// TenantFields are JSON paths of the message's tenant (default: members
	// named like a tenant, see tenantNames); the second-tenant round
	// delivers the message again with another value there.
	TenantFields []string

	KillPoints  []KillPoint // empty: the default plan
	Rounds      int         // with a `random` kill point: how many random rounds
	Seed        int64       // with a `random` kill point
	MaxAttempts int         // deliveries per message, default 3
	Timeout     time.Duration
	Backoff     time.Duration // before the first redelivery; doubles after, up to MaxBackoff
	// RoundTimeout bounds the deliveries of one round, all attempts and
	// backoffs included (default DefaultRoundTimeout): a round that has
	// not settled by then ends the run with an EnvError.
	RoundTimeout time.Duration
	Fault        ProviderFault

	DSN  string // libpq DSN of a loopback PostgreSQL; see CheckLoopback
	Keep bool   // keep the schema after the run

	// Env is the base environment of the handler (default os.Environ()).
	Env []string
	// Progress, when set, is called before each round.
	Progress func(round, total int, label string)
	// Notice, when set, receives one-line notices about the run (a handler
	// asked the database proxy for TLS).
	Notice func(string)
}

// EnvError is a harness or environment failure (handler not found, database
// unreachable, a handler that fails without any kill, nothing to judge): the
// run has no verdict.
type EnvError struct {
	Err error
	// Tail is the end of the handler's output when the handler failing
	// on its own is the reason, for the user to see why.
	Tail []string
}

func (e *EnvError) Error() string { return e.Err.Error() }
func (e *EnvError) Unwrap() error { return e.Err }

func envErrorf(format string, args ...any) error {
	return &EnvError{Err: fmt.Errorf(format, args...)}
}

func (c *Config) withDefaults() {
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 3
	}
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Backoff <= 0 {
		c.Backoff = 100 * time.Millisecond
	}
	if c.RoundTimeout <= 0 {
		c.RoundTimeout = DefaultRoundTimeout
	}
	if c.Env == nil {
		c.Env = os.Environ()
	}
	if c.Rounds <= 0 {
		c.Rounds = 5
	}
}

// harness holds what lives for the whole run.
type harness struct {
	cfg       Config
	db        *database
	proxy     *pgproxy.Proxy
	prov      *provider
	model     *fakeModel
	msgFile   string
	tmpDir    string // the handlers' TMPDIR, removed at the end
	hmacKey   string
	env       []string
	learned   Learned
	learnedOK bool
	// drifted are the endpoints whose key changed between attempts in a
	// round before: a resend round's second key is no news about them.
	drifted map[string]bool
	steady  map[string]bool // endpoints that kept one key across attempts
	// resendRan: a resend round ran; envelopeDrifted are the endpoints
	// whose key changed in it (the key follows the message id), which
	// explains a second key in the respell round better than the spelling.
	resendRan       bool
	envelopeDrifted map[string]bool
	cleanMS         int64
	roundMu         sync.Mutex
	round           *roundState
	transport       transport      // how messages reach the handler
	marker          string         // NAME=VALUE put in every handler's environment
	envelope        []envelopeSpan // the transport's ids in the message
	tenant          []envelopeSpan // the message's tenant fields
}

// runMarkerEnv marks the environment of every handler process, so that what
// escapes the process group can still be found and killed.
const runMarkerEnv = "IDEMCHECK_RUN_ID"

// Run executes the run described by cfg. A harness or environment failure is
// returned as an *EnvError (or the context's error); failed checks are not
// errors, they are in the Report. When the handler itself is the reason
// (it fails without any kill, or gives nothing to judge) the Report of the
// rounds run so far comes with the error.
func Run(ctx context.Context, cfg Config) (rep *Report, retErr error) {
	cfg.withDefaults()
	if err := supported(); err != nil {
		return nil, &EnvError{Err: err}
	}
	if strings.TrimSpace(cfg.Handler) == "" {
		return nil, envErrorf("no handler command")
	}
	h := &harness{cfg: cfg, hmacKey: "idemcheck-test-secret-" + randomHex(16)}
	h.marker = runMarkerEnv + "=" + randomHex(8) + ownerSuffix()
	// What a run killed with SIGKILL left behind (its handlers' children
	// outlive the parent-death signal of the shell) goes now.
	sweepOrphaned()
	sweepStaleMessageFiles()
	sweepStaleTempDirs()
	var err error
	if h.tmpDir, err = createTempDir(); err != nil {
		return nil, &EnvError{Err: err}
	}
	defer os.RemoveAll(h.tmpDir) // after the sweep below: nothing writes there any more
	defer sweepMarked(h.marker)

	envelope, err := findEnvelope(cfg.Message, cfg.EnvelopeFields)
	if err != nil {
		return nil, &EnvError{Err: err}
	}
	h.envelope = envelope
	if h.tenant, err = findTenant(cfg.Message, cfg.TenantFields); err != nil {
		return nil, &EnvError{Err: err}
	}
	if err := h.checkTenantPlan(); err != nil {
		return nil, &EnvError{Err: err}
	}
	if err := h.checkResendPlan(); err != nil {
		return nil, &EnvError{Err: err}
	}
	if err := h.checkRespellPlan(); err != nil {
		return nil, &EnvError{Err: err}
	}
	if err := h.checkForgetsPlan(); err != nil {
		return nil, &EnvError{Err: err}
	}
	if err := transactionControl(cfg.Setup); err != nil {
		return nil, &EnvError{Err: err}
	}
	if h.msgFile, err = writeMessageFile(cfg.Message); err != nil {
		return nil, &EnvError{Err: err}
	}
	defer os.Remove(h.msgFile)

	db, err := openDatabase(ctx, cfg.DSN)
	if err != nil {
		return nil, &EnvError{Err: err}
	}
	h.db = db
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = db.close(cctx, cfg.Keep)
	}()
	if h.proxy, err = h.startProxy(); err != nil {
		return nil, &EnvError{Err: err}
	}
	defer h.proxy.Close()

	if h.prov, err = startProvider(cfg.Fault); err != nil {
		return nil, &EnvError{Err: err}
	}
	defer h.prov.close()
	if cfg.ModelReplies != nil {
		if h.model, err = startModel(cfg.ModelReplies); err != nil {
			return nil, &EnvError{Err: err}
		}
		defer h.model.close()
	}
	h.env = h.handlerEnv()
	if h.transport, err = h.openTransport(ctx); err != nil {
		return nil, err
	}
	defer func() {
		if cerr := h.transport.close(); cerr != nil && retErr == nil {
			rep, retErr = nil, cerr
		}
	}()

	rep = &Report{
		Version:     ReportVersion,
		Handler:     cfg.Handler,
		Deliver:     RedactURL(cfg.Delivery.URL),
		Schema:      db.schema,
		Kept:        cfg.Keep,
		SchemaCheck: db.guard.status(),
	}
	h.transport.describe(rep)
	if h.resendApplies() {
		for _, e := range h.envelope {
			rep.EnvelopeFields = append(rep.EnvelopeFields, e.path)
		}
	}
	if h.tenantApplies() || slices.ContainsFunc(h.cfg.KillPoints, func(k KillPoint) bool { return k.Kind == KillTenant }) {
		for _, t := range h.tenant {
			rep.TenantFields = append(rep.TenantFields, t.path)
		}
	}
	plan, random := h.initialPlan()
	if random {
		seed := cfg.Seed
		rep.Seed = &seed
	}
	for i := 0; i < len(plan); i++ {
		if cfg.Progress != nil {
			cfg.Progress(i+1, len(plan), plan[i].Label())
		}
		//idemcheck:ignore IDEM001 the run's HMAC secret is random per run on purpose: the round keys are derived with it, and no run resumes another's
		round, err := h.runRoundUninterrupted(ctx, i+1, plan[i])
		if err != nil {
			if ctx.Err() != nil && len(rep.Rounds) > 0 {
				return h.interrupted(rep, len(plan)), err
			}
			return nil, err
		}
		rep.Rounds = append(rep.Rounds, round)
		reference := plan[i].Kind == KillNone && !h.learnedOK
		if reference {
			h.learn(round)
		}
		if err := h.unjudgeable(ctx, i+1, round, reference); err != nil {
			return h.finish(rep), err
		}
		if reference {
			plan = h.expandPlan(plan, random)
		}
	}
	if err := h.nothingObserved(rep.Rounds); err != nil {
		return h.finish(rep), err
	}
	return h.finish(rep), nil
}

// interrupted is the report of a run stopped after the rounds it holds,
// of planned: what those rounds showed, and no verdict on the rest.
func (h *harness) interrupted(rep *Report, planned int) *Report {
	h.finish(rep)
	var shown string
	switch rep.Verdict {
	case VerdictFail:
		shown = fmt.Sprintf("%d of the %d finished rounds failed: %s", rep.RoundsFailed, rep.RoundsTotal, failureReasons(rep.Rounds))
	case VerdictIncomplete:
		shown = "every finished round passed, but " + untestedReasons(rep.Rounds)
	default:
		shown = "every finished round passed"
	}
	rep.Verdict = VerdictInterrupted
	rep.Summary = fmt.Sprintf("INTERRUPTED after %d of %d planned rounds: %s; the rounds not run tested nothing", rep.RoundsTotal, planned, shown)
	return rep
}

func (h *harness) finish(rep *Report) *Report {
	rep.Learned = h.learned
	if rep.Learned.Endpoints == nil {
		rep.Learned.Endpoints = []string{}
	}
	finishReport(rep)
	return rep
}

// noteDrift remembers the endpoints whose key was drawn per attempt, and,
// outside concurrent rounds, those that kept one key over several requests.
func (h *harness) noteDrift(r Round, concurrent bool) {
	for _, t := range r.Effects {
		switch {
		case concurrent && !keyChangedWithinADelivery(r, t.Endpoint):
			// Concurrent copies that drew keys of their own are a race,
			// which the round names; what a redelivery does is seen
			// within one copy's attempts.
		case len(t.Keys) > 1:
			if h.drifted == nil {
				h.drifted = map[string]bool{}
			}
			h.drifted[t.Endpoint] = true
		case len(t.Keys) == 1 && t.Requests > 1 && !concurrent:
			if h.steady == nil {
				h.steady = map[string]bool{}
			}
			h.steady[t.Endpoint] = true
		}
	}
}

// keyChangedWithinADelivery reports whether some delivery's requests to
// endpoint carried more than one key drawn by itself. A redelivery that
// took up the key another copy drew first read that copy's row: the copies
// share state, which is the race the round names, not a key drawn per
// attempt.
func keyChangedWithinADelivery(r Round, endpoint string) bool {
	first := map[int]string{}
	for _, q := range r.EffectRequests {
		if q.Endpoint != endpoint || q.IdempotencyKey == "" || q.Delivery == 0 {
			continue
		}
		if _, ok := first[q.Delivery]; !ok {
			first[q.Delivery] = q.IdempotencyKey
		}
	}
	for _, q := range r.EffectRequests {
		if q.Endpoint != endpoint || q.IdempotencyKey == "" || q.Delivery == 0 || q.IdempotencyKey == first[q.Delivery] {
			continue
		}
		if !anotherDeliveryDrew(first, q.Delivery, q.IdempotencyKey) {
			return true
		}
	}
	return false
}

// anotherDeliveryDrew reports whether a delivery other than d began with key.
func anotherDeliveryDrew(first map[int]string, d int, key string) bool {
	for other, k := range first {
		if other != d && k == key {
			return true
		}
	}
	return false
}

// initialPlan is the explicit --kill-at list, or a clean round that the
// default or random plan grows from once it has learned the handler.
func (h *harness) initialPlan() (plan []KillPoint, random bool) {
	for _, k := range h.cfg.KillPoints {
		if k.Kind == KillRandom {
			random = true
		}
	}
	if len(h.cfg.KillPoints) == 0 || random {
		return []KillPoint{{Kind: KillNone}}, random
	}
	plan = append([]KillPoint(nil), h.cfg.KillPoints...)
	if len(h.cfg.EffectSQL) > 0 && !slices.ContainsFunc(plan, func(k KillPoint) bool { return k.Kind == KillNone }) {
		// The --effect-sql counts are judged against a clean round's.
		plan = append([]KillPoint{{Kind: KillNone}}, plan...)
	}
	return plan, false
}

// expandPlan adds the learned rounds after the clean round.
func (h *harness) expandPlan(plan []KillPoint, random bool) []KillPoint {
	if len(h.cfg.KillPoints) > 0 && !random {
		return plan
	}
	var candidates []KillPoint
	for k := 1; k <= h.learned.RequestsPerAttempt; k++ {
		for _, kind := range []string{KillRequest, KillResponse, KillAfterResponse} {
			candidates = append(candidates, KillPoint{Kind: kind, N: k})
		}
	}
	for n := 1; n <= h.learned.Writes; n++ {
		candidates = append(candidates, KillPoint{Kind: KillDBWrite, N: n})
	}
	if h.resendApplies() {
		candidates = append(candidates, KillPoint{Kind: KillResend})
	}
	if h.respellApplies() {
		candidates = append(candidates, KillPoint{Kind: KillRespell})
	}
	if h.forgetsApplies() {
		candidates = append(candidates, KillPoint{Kind: KillForgets})
	}
	if h.tenantApplies() {
		candidates = append(candidates, KillPoint{Kind: KillTenant})
	}
	candidates = append(candidates, h.concurrentKills(random)...)
	if !random {
		return append(plan, append(candidates, KillPoint{Kind: KillConcurrent, N: 2})...)
	}
	// Kill points named next to `random` run first, as given.
	for _, k := range h.cfg.KillPoints {
		if k.Kind != KillRandom && k.Kind != KillNone {
			plan = append(plan, k)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(h.cfg.Seed), 0x1dec4ec))
	maxDelay := max(h.cleanMS, 20)
	for i := 0; i < h.cfg.Rounds; i++ {
		switch pick := rng.IntN(len(candidates) + 2); {
		case pick < len(candidates):
			plan = append(plan, candidates[pick])
		case pick == len(candidates):
			d := time.Duration(1+rng.Int64N(maxDelay)) * time.Millisecond
			plan = append(plan, KillPoint{Kind: KillTime, Delay: d})
		default:
			plan = append(plan, KillPoint{Kind: KillConcurrent, N: 2})
		}
	}
	return plan
}

// concurrentKills are the rounds in which one of two copies of the message
// at once is killed while the other runs. The default plan kills the first
// copy as its K-th effect request arrives: the copy that never made its
// effect, which a handler that takes the other copy's claim for done never
// makes. --kill-at random draws from every kill point. Not with
// --client-key: the API answers both copies from one process, which one
// kill stops, and the in-flight probe already tests the 409.
func (h *harness) concurrentKills(random bool) []KillPoint {
	if h.cfg.Delivery.clientKey() {
		return nil
	}
	var out []KillPoint
	for k := 1; k <= h.learned.RequestsPerAttempt; k++ {
		out = append(out, KillPoint{Kind: KillRequest, N: k, Together: 2})
		if random {
			out = append(out, KillPoint{Kind: KillResponse, N: k, Together: 2}, KillPoint{Kind: KillAfterResponse, N: k, Together: 2})
		}
	}
	for n := 1; random && n <= h.learned.Writes; n++ {
		out = append(out, KillPoint{Kind: KillDBWrite, N: n, Together: 2})
	}
	return out
}

// learn records what a clean delivery does: its writes and effect requests.
func (h *harness) learn(r Round) {
	h.learnedOK = true
	h.cleanMS = r.DurationMS
	for _, a := range r.Attempts {
		h.learned.Writes = max(h.learned.Writes, a.Writes)
	}
	h.learned.EffectRequests = len(r.EffectRequests)
	h.learned.RequestsPerAttempt = requestsPerAttempt(r.EffectRequests)
	h.learned.Endpoints = endpointsOf(r.EffectRequests)
	h.learned.LocalEffects = r.LocalEffects
}

// handlerEnv is the environment of every handler process.
func (h *harness) handlerEnv() []string {
	drop := map[string]bool{"DATABASE_URL": true, "PROVIDER_URL": true, "MODEL_URL": true, "IDEMPOTENCY_HMAC_KEY": true,
		"TMPDIR": true, "GOTMPDIR": true}
	var env []string
	for _, kv := range h.cfg.Env {
		name, _, _ := strings.Cut(kv, "=")
		if drop[name] || name == runMarkerEnv || strings.HasPrefix(name, "PG") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, h.db.handlerEnv(h.proxy.Addr())...)
	env = append(env, "PROVIDER_URL="+h.prov.URL(), "IDEMPOTENCY_HMAC_KEY="+h.hmacKey, h.marker)
	// The run's own temporary directory: what a killed handler left there
	// (`go run`'s build directory, 11 MB each) goes with it at the end.
	env = append(env, "TMPDIR="+h.tmpDir, "GOTMPDIR="+h.tmpDir)
	if h.model != nil {
		env = append(env, "MODEL_URL="+h.model.URL())
	}
	return env
}

// startProxy puts the database proxy between the handlers and the server:
// it reports every writing commit and every writing statement to the round.
func (h *harness) startProxy() (*pgproxy.Proxy, error) {
	cfg := pgproxy.Config{
		Upstream: h.cfg.DSN,
		OnNotice: h.db.guard.onProxyNotice,
		Refuse: func(_ *pgproxy.Session, st pgproxy.Statement) string {
			return h.db.guard.copyOutside("the handler", st)
		},
		OnCommit: func(s *pgproxy.Session, _ pgproxy.Commit) pgproxy.Action {
			if rs := h.currentRound(); rs != nil {
				return rs.onCommit(s)
			}
			return pgproxy.Deliver
		},
		BeforeWrite: func(ctx context.Context, s *pgproxy.Session, _ pgproxy.Statement) {
			if rs := h.currentRound(); rs != nil {
				rs.beforeWrite(ctx, s)
			}
		},
		Logf: func(format string, args ...any) {
			if h.cfg.Notice != nil {
				h.cfg.Notice(fmt.Sprintf(format, args...))
			}
		},
	}
	if r := h.db.role; r != nil {
		cfg.User, cfg.Password = r.name, r.password
	} else {
		cfg.Params = map[string]string{runGUC: h.db.guard.runID}
	}
	return pgproxy.Start(cfg)
}

func (h *harness) currentRound() *roundState {
	h.roundMu.Lock()
	defer h.roundMu.Unlock()
	return h.round
}

// redoer is a transport that can tell when it, not the handler, decided a
// round (a broker consumer stopped as idle while it still worked): the
// round is then run again, with more patience.
type redoer interface{ redo(redos int) bool }

// runRoundUninterrupted runs the round again while the transport says it
// interrupted the handler's work, up to the transport's limit; a round the
// harness decided is never reported.
func (h *harness) runRoundUninterrupted(ctx context.Context, index int, kp KillPoint) (Round, error) {
	for redos := 0; ; redos++ {
		//idemcheck:ignore IDEM001 a client-key round draws one key per round, as the API's client does, and its probes resend it on purpose
		round, err := h.runRound(ctx, index, kp)
		r, ok := h.transport.(redoer)
		if err != nil || !ok || !r.redo(redos) {
			return round, err
		}
	}
}

func (h *harness) runRound(ctx context.Context, index int, kp KillPoint) (Round, error) {
	if err := ctx.Err(); err != nil {
		return Round{}, err
	}
	h.db.guard.setupStatements(h.cfg.Setup)
	if err := h.db.guard.check(h.db.schema); err != nil {
		return Round{}, err
	}
	// Only the clean round's advice (hygiene.go) needs the seeded rows.
	h.db.countSeeds = !h.learnedOK && len(h.cfg.EffectSQL) == 0
	if err := h.db.resetSchema(ctx, h.cfg.Setup); err != nil {
		var env *EnvError
		switch lost := h.db.lostConnection(ctx, err); {
		case ctx.Err() != nil:
			return Round{}, ctx.Err()
		case lost != nil:
			return Round{}, lost
		case errors.As(err, &env):
			return Round{}, err
		}
		return Round{}, &EnvError{Err: err}
	}
	rs := newRoundState(h, kp)
	if kp.Kind == KillRespell {
		// The round's kill is its first delivery's.
		rs = newRoundState(h, h.respellKill())
		rs.planned = kp
	}
	if kp.Concurrent() {
		// A server answers every delivery from one process: its arrivals
		// cannot be told apart by delivery.
		oneProcess := h.transport.oneProcess()
		rs.rv = newRendezvous(kp.Deliveries(), rendezvousWait(h.cleanMS, h.cfg.Timeout), !oneProcess, rs.holds)
		rs.rv.scaleWithArrival(time.Now(), h.cfg.Timeout/2)
		if oneProcess {
			rs.gate = newStartGate(kp.Deliveries(), startGateWait(h.cfg.Timeout))
		}
	}
	h.roundMu.Lock()
	h.round = rs
	h.roundMu.Unlock()
	h.prov.reset(rs)
	if h.model != nil {
		h.model.reset()
	}

	dctx, stopDeliveries := context.WithTimeout(ctx, h.cfg.RoundTimeout)
	defer stopDeliveries()
	stopWatch := h.watchBypass()
	defer stopWatch()
	switch kp.Kind {
	case KillResend, KillRespell, KillTenant:
		prepare := rs.prepareResend
		switch kp.Kind {
		case KillRespell:
			prepare = rs.prepareRespell
		case KillTenant:
			prepare = rs.prepareTenant
		}
		if err := prepare(); err != nil {
			return Round{}, &EnvError{Err: err}
		}
		defer rs.cleanupResend()
	case KillForgets:
		rs.forget = h.prov.forget
	}
	h.transport.deliver(dctx, rs)
	stopWatch()
	escaped := sweepMarked(h.marker)
	if ctx.Err() == nil && dctx.Err() != nil {
		return Round{}, rs.roundTimeout(index)
	}
	if rs.envError != nil {
		return Round{}, rs.envError
	}
	if err := h.db.guard.check(h.db.schema); err != nil {
		return Round{}, err
	}
	round := rs.result(index)
	round.KillPoint = kp.String()
	round.Resent = rs.resendChanges
	round.Respelled = rs.respellChanges
	if rs.rv != nil {
		round.Rendezvous = rs.rv.report(rs.start)
	}
	round.EscapedProcesses = escaped
	h.roundMu.Lock()
	h.round = nil
	h.roundMu.Unlock()
	// The provider keeps the round's keys until the next round: a probe
	// after the round (another client sending the same key) must meet a
	// provider that remembers, as a real one does.
	h.prov.setHooks(nil)
	if err := ctx.Err(); err != nil {
		return Round{}, err
	}
	if h.model != nil {
		round.ModelCalls = h.model.callCount()
	}
	if err := h.db.alive(ctx); err != nil {
		return Round{}, err
	}
	local, err := h.db.countLocalEffects(ctx, h.cfg.EffectSQL)
	if err != nil {
		if ctx.Err() != nil {
			return Round{}, ctx.Err()
		}
		if lost := h.db.lostConnection(ctx, err); lost != nil {
			return Round{}, lost
		}
		return Round{}, &EnvError{Err: err}
	}
	exp := expectation{endpoints: h.learned.Endpoints, reference: kp.Kind == KillNone && !h.learnedOK,
		secondSend: h.secondSendReason(kp, rs), renewed: rs.resendChanges, forgot: kp.Kind == KillForgets,
		learned: h.learnedOK, killLanded: round.KillReached, drifted: h.drifted,
		concurrent: kp.Concurrent(), oneMessage: kp.oneMessage(), tenants: kp.Kind == KillTenant, steady: h.steady,
		idsKept: len(h.envelope) == 0}
	if !exp.reference {
		expectLocal(local, h.learned.LocalEffects, exp.operations())
	}
	round.LocalEffects = local
	round.Checks = runChecks(&round, exp)
	if err := h.transport.judge(ctx, rs, &round); err != nil {
		return Round{}, err
	}
	if err := h.transport.failure(); err != nil {
		return Round{}, err // the answers may have come from another run's server
	}
	round.Passed = allPassed(round.Checks)
	switch kp.Kind {
	case KillResend:
		h.noteEnvelopeDrift(round)
	case KillRespell, KillTenant:
	default:
		h.noteDrift(round, kp.Concurrent())
	}
	if err := h.environmentFailure(index, round); err != nil {
		return Round{}, err
	}
	return round, nil
}

// environmentFailure turns "the handler could not even be found" on the
// very first attempt into a harness error: there is nothing to test.
func (h *harness) environmentFailure(index int, r Round) error {
	if index != 1 || len(r.Attempts) == 0 {
		return nil
	}
	a := r.Attempts[0]
	if a.Outcome == OutcomeError && h.cfg.Delivery.URL == "" {
		return envErrorf("handler could not be started: %s", a.Error)
	}
	if a.ExitCode != nil && (*a.ExitCode == 127 || *a.ExitCode == 126) {
		detail := lastLine(a.Stderr)
		if detail == "" {
			detail = fmt.Sprintf("sh exited %d", *a.ExitCode)
		}
		return envErrorf("handler not found or not executable: %s", detail)
	}
	return nil
}
