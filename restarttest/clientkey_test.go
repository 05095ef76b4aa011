package restarttest

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/internal/mutant"
)

// apiConfig runs testdata/restart/api/<name> as an HTTP API with idemcheck
// as its client: two clients, keys required.
func apiConfig(t *testing.T, name string) Config {
	t.Helper()
	return apiServerConfig(t, apiServer(t, name))
}

// apiServerConfig is apiConfig for the server command server, which
// takes the address to listen on as its last argument.
func apiServerConfig(t *testing.T, server string) Config {
	t.Helper()
	port, err := serverPort()
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Handler: fmt.Sprintf("exec %s 127.0.0.1:%d", server, port),
		Delivery: Delivery{URL: fmt.Sprintf("http://127.0.0.1:%d/v1/orders", port), ClientKey: &ClientKeyDelivery{
			ClientHeaders: []string{"Authorization: Bearer alice", "Authorization: Bearer bob"},
			RequireKey:    true,
		}},
		Message:     readTestdata(t, "message.json"),
		Setup:       string(readTestdata(t, "api/setup.sql")),
		MaxAttempts: 4,
		Timeout:     attemptLimit,
		Backoff:     30 * time.Millisecond,
		DSN:         dsn(t),
	}
}

// apiServer returns testdata/restart/api/<name>, built once.
func apiServer(t *testing.T, name string) string {
	t.Helper()
	return buildMain(t, "testdata/restart/api/"+name)
}

func TestAPIRightPasses(t *testing.T) {
	t.Parallel()
	cfg := apiConfig(t, "right")
	// The rounds with probes; the whole kill matrix in a full run.
	cfg.KillPoints = unlessFull(KillPoint{Kind: KillNone}, KillPoint{Kind: KillResponse}, KillPoint{Kind: KillConcurrent, N: 2})
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictPass {
		t.Fatalf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
	}
	clean := roundAt(t, rep, "none")
	for _, name := range []string{CheckReplayIdentical, CheckMismatchRejected, CheckKeyRequired, CheckClientScoped} {
		if c := check(clean, name); c.Name == "" || !c.Passed {
			t.Errorf("clean round: %s = %+v, want applicable and passed", name, c)
		}
	}
	if c := check(roundAt(t, rep, "concurrent:2"), CheckInFlightConflict); !c.Passed {
		t.Errorf("concurrent round: in-flight-conflict = %+v", c)
	}
	// The clean round's probes are not sent in a kill round: listed, not
	// applicable, never a pass nobody earned.
	for _, name := range []string{CheckInFlightConflict, CheckMismatchRejected, CheckKeyRequired, CheckClientScoped} {
		if c := check(roundAt(t, rep, "response"), name); c.Name == "" || c.Applicable {
			t.Errorf("response round: %s = %+v, want listed as not applicable", name, c)
		}
	}
	checkClientKeyJSON(t, rep)
}

// checkClientKeyJSON looks at the --format json shape of a --client-key
// run: the header, the key on each attempt, the probes of the clean round.
func checkClientKeyJSON(t *testing.T, rep *Report) {
	t.Helper()
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		ClientKeyHeader string `json:"client_key_header"`
		Rounds          []struct {
			KillPoint string `json:"kill_point"`
			Attempts  []struct {
				IdempotencyKey string `json:"idempotency_key"`
				Response       string `json:"response"`
			} `json:"attempts"`
			Probes []struct {
				Name           string            `json:"name"`
				Status         int               `json:"status"`
				EffectRequests []json.RawMessage `json:"effect_requests"`
			} `json:"probes"`
		} `json:"rounds"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if out.ClientKeyHeader != "Idempotency-Key" {
		t.Errorf("client_key_header %q", out.ClientKeyHeader)
	}
	clean := out.Rounds[0]
	if a := clean.Attempts[0]; a.IdempotencyKey == "" || !strings.Contains(a.Response, "order_id") {
		t.Errorf("clean round attempt: %+v, want the key sent and the answer", a)
	}
	var names []string
	for _, p := range clean.Probes {
		names = append(names, fmt.Sprintf("%s:%d", p.Name, p.Status))
		if p.EffectRequests == nil {
			t.Errorf("probe %s: effect_requests is null, want a list", p.Name)
		}
	}
	if got, want := strings.Join(names, " "), "replay:201 mismatch:422 no-key:400 other-client:201"; got != want {
		t.Errorf("clean round probes %s, want %s", got, want)
	}
}

// Each broken middleware fails the check written for its flaw, and only
// the rounds that can see it.
func TestAPIContractFlaws(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, round, check, detail string
	}{
		{"nofingerprint", "none", CheckMismatchRejected, "got the stored response (201): the request is not fingerprinted"},
		{"globalkeys", "none", CheckClientScoped, "got client 1's stored response (201): keys are not scoped per client"},
		{"rerender", "response", CheckReplayIdentical, "a retry must get the stored response"},
		{"noguard", "concurrent:2", CheckInFlightConflict, "while the first request was still running: no in-flight guard"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := apiConfig(t, tc.name)
			// The clean round, and the round that shows the flaw.
			cfg.KillPoints = []KillPoint{{Kind: KillNone}}
			if tc.round != "none" {
				kp, _ := ParseKillPoint(tc.round)
				cfg.KillPoints = append(cfg.KillPoints, kp)
			}
			rep := run(t, cfg)
			defer dumpOnFailure(t, rep)
			if rep.Verdict != VerdictFail {
				t.Fatalf("verdict %s, want fail", rep.Verdict)
			}
			c := check(roundAt(t, rep, tc.round), tc.check)
			if !c.Failed() || !strings.Contains(c.Detail, tc.detail) {
				t.Errorf("round %s: %s = %+v, want failed with %q", tc.round, tc.check, c, tc.detail)
			}
			for _, r := range rep.Rounds {
				for _, c := range r.Checks {
					// Two runs of one key also leave two stored answers.
					alsoReplay := tc.name == "noguard" && c.Name == CheckReplayIdentical
					if c.Failed() && c.Name != tc.check && !alsoReplay {
						t.Errorf("round %s: %s failed too: %s", r.KillPoint, c.Name, c.Detail)
					}
				}
			}
		})
	}
}

// The article's middleware, verbatim, in sh: a crash between "processing"
// and "done" leaves the key stuck, and a request without a key runs
// unprotected. (The doc script restart_delivery runs the same command
// through the CLI with IDEMCHECK_TESTS=full and compares the output the
// docs show.)
func TestAPIArticleMiddlewareLeavesTheKeyStuck(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"socat", "psql", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	cfg := apiConfig(t, "right")
	port := strings.TrimPrefix(strings.Split(cfg.Delivery.URL, "/")[2], "127.0.0.1:")
	cfg.Handler = "sh ../testdata/restart/api/sh/article.sh " + port
	cfg.KillPoints = []KillPoint{{Kind: KillNone}, {Kind: KillResponse}}
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if rep.Verdict != VerdictFail {
		t.Fatalf("verdict %s, want fail", rep.Verdict)
	}
	r := roundAt(t, rep, "response")
	key := r.Attempts[0].IdempotencyKey
	want := "key " + key + " stuck in processing: the server never completes or expires it"
	if c := check(r, CheckAcked); !c.Failed() || !strings.HasPrefix(c.Detail, want) {
		t.Errorf("response round: acked = %+v, want %q", c, want)
	}
	if !strings.Contains(rep.Summary, "stuck in processing") {
		t.Errorf("summary %q does not name the stuck key", rep.Summary)
	}
	clean := roundAt(t, rep, "none")
	if c := check(clean, CheckKeyRequired); !c.Failed() || !strings.Contains(c.Detail, "was executed") {
		t.Errorf("clean round: key-required = %+v, want the unprotected path executed", c)
	}
	for _, name := range []string{CheckReplayIdentical, CheckMismatchRejected, CheckClientScoped} {
		if c := check(clean, name); !c.Passed {
			t.Errorf("clean round: %s = %+v, want passed: the article keeps that part", name, c)
		}
	}
}

// A server that scopes its own table per client but passes the client's key
// on to the provider unchanged: the provider, which remembers keys as real
// ones do, answers client 2's charge with client 1's, and client 2's
// operation never happens.
func TestAPIProviderKeyNotScopedPerClient(t *testing.T) {
	t.Parallel()
	i := slices.IndexFunc(mutationSubjects(), func(s mutationSubject) bool { return strings.HasPrefix(s.name, "api/right") })
	if i < 0 {
		t.Fatal("no api/right mutation subject")
	}
	s := mutationSubjects()[i]
	files := map[string][]byte{}
	for _, f := range s.files {
		files[f] = readTestdata(t, f)
	}
	m, err := mutant.Apply(files, "provider-key-scope")
	if err != nil {
		t.Fatal(err)
	}
	cfg := s.config(t, mutantHandler(t, s, m), setupOf(s, m))
	cfg.KillPoints = []KillPoint{{Kind: KillNone}}
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	c := check(rep.Rounds[0], CheckClientScoped)
	if want := "the provider replayed client 1's effect for it"; !c.Failed() || !strings.Contains(c.Detail, want) {
		t.Errorf("client-scoped = %+v, want failed with %q", c, want)
	}
}

// --provider-fault 500-once fails the round's first provider request, once:
// not again on the probes after the round, so the correct server passes
// client-scoped.
func TestAPIRightPassesWithAProviderFault(t *testing.T) {
	t.Parallel()
	cfg := apiConfig(t, "right")
	cfg.KillPoints = []KillPoint{{Kind: KillNone}}
	cfg.Fault = ProviderFault{FailOnce: true}
	rep := run(t, cfg)
	defer dumpOnFailure(t, rep)
	if c := check(rep.Rounds[0], CheckClientScoped); !c.Passed {
		t.Errorf("client-scoped = %+v, want passed", c)
	}
	if rep.Verdict != VerdictPass {
		t.Errorf("verdict %s, failed %v", rep.Verdict, failedChecks(rep))
	}
}
