package restarttest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func post(t *testing.T, url, key, body string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// The fake provider follows Stripe and the IETF Idempotency-Key draft.
func TestProviderIdempotencySemantics(t *testing.T) {
	p, err := startProvider(ProviderFault{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	p.reset(nil)
	url := p.URL() + "/v1/charges"

	status, body, _ := post(t, url, "k1", `{"amount":100}`)
	if status != 200 || body != `{"id":"ch_1","status":"succeeded"}` {
		t.Errorf("first: %d %s", status, body)
	}
	status, body, h := post(t, url, "k1", `{ "amount" : 100 }`)
	if status != 200 || body != `{"id":"ch_1","status":"succeeded"}` || h.Get("Idempotent-Replayed") != "true" {
		t.Errorf("same key, same body: %d %s %v", status, body, h)
	}
	if status, _, _ = post(t, url, "k1", `{"amount":200}`); status != 422 {
		t.Errorf("same key, different body: %d, want 422", status)
	}
	post(t, url, "", `{"amount":100}`)
	status, body, _ = post(t, url, "", `{"amount":100}`)
	if status != 200 || body != `{"id":"ch_3","status":"succeeded"}` {
		t.Errorf("no key executes every time: %d %s", status, body)
	}
	if status, body, _ = post(t, p.URL()+"/v1/transfers", "k1", `{"amount":100}`); status != 200 || !strings.Contains(body, "ch_4") {
		t.Errorf("keys are per endpoint: %d %s", status, body)
	}
	reqs := p.snapshot()
	want := []string{ResultExecuted, ResultReplayed, ResultConflict, ResultExecuted, ResultExecuted, ResultExecuted}
	for i, r := range reqs {
		if r.Result != want[i] {
			t.Errorf("request %d: %s, want %s", i+1, r.Result, want[i])
		}
	}
	if reqs[0].Amount != "100" || reqs[0].Endpoint != "POST /v1/charges" {
		t.Errorf("request 1: %+v", reqs[0])
	}
	if status, _, _ = post(t, url, "k1", `{}`); status == 200 {
		t.Error("state leaked")
	}
	p.reset(nil)
	if status, body, _ = post(t, url, "k1", `{"amount":200}`); status != 200 || !strings.Contains(body, "ch_1") {
		t.Errorf("after reset: %d %s", status, body)
	}
}

func TestProviderInFlightAndFaults(t *testing.T) {
	p, err := startProvider(ProviderFault{FailOnce: true, Delay: 600 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	p.reset(nil)
	url := p.URL() + "/v1/charges"
	if status, _, _ := post(t, url, "k", `{}`); status != 500 {
		t.Errorf("500-once: first request got %d", status)
	}
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 200 * time.Millisecond)
			statuses[i], _, _ = post(t, url, "k", `{}`)
		}()
	}
	wg.Wait()
	// Whichever arrived first executes; the other finds it in flight.
	if !(statuses[0] == 200 && statuses[1] == 409 || statuses[0] == 409 && statuses[1] == 200) {
		t.Errorf("statuses %v, want one 200 and one 409 while in flight", statuses)
	}
	got := p.snapshot()
	if len(got) != 3 {
		t.Fatalf("%d requests recorded, want 3", len(got))
	}
	if got[0].Result != ResultFault || got[2].Result != ResultInFlight && got[1].Result != ResultInFlight {
		t.Errorf("results %s %s %s", got[0].Result, got[1].Result, got[2].Result)
	}
}

func TestParseProviderFault(t *testing.T) {
	f, err := ParseProviderFault("500-once,delay:150ms")
	if err != nil || !f.FailOnce || f.Delay != 150*time.Millisecond {
		t.Errorf("%+v %v", f, err)
	}
	for _, bad := range []string{"503", "delay:soon", "delay:-1s"} {
		if _, err := ParseProviderFault(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestFakeModelCyclesReplies(t *testing.T) {
	m, err := startModel([]string{"one", "two"})
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	var got []string
	for i := 0; i < 3; i++ {
		resp, err := http.Post(m.URL()+"/v1/chat/completions", "application/json", strings.NewReader(`{"messages":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Choices []struct{ Message struct{ Content string } }
		}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		got = append(got, out.Choices[0].Message.Content)
	}
	if strings.Join(got, ",") != "one,two,one" {
		t.Errorf("replies %v", got)
	}
	m.reset()
	if m.callCount() != 0 {
		t.Error("reset kept the count")
	}
	if r := ParseModelReplies([]byte("a\r\n\n b \n")); len(r) != 2 || r[0] != "a" {
		t.Errorf("ParseModelReplies = %q", r)
	}
}

func TestParseKillPoint(t *testing.T) {
	good := map[string]string{
		"request": "request", "response": "response", "after-response": "after-response",
		"db-write:3": "db-write:3", "time:150ms": "time:150ms", "concurrent:2": "concurrent:2",
		"random": "random", "none": "none", "clean": "none",
	}
	for in, want := range good {
		k, err := ParseKillPoint(in)
		if err != nil || k.String() != want {
			t.Errorf("%s: %v %v", in, k, err)
		}
	}
	for _, bad := range []string{"", "db-write", "db-write:0", "time:x", "concurrent:1", "request:0", "explode"} {
		if _, err := ParseKillPoint(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// A typo gets the closest kill point; nonsense gets none.
	for in, want := range map[string]string{"respnse": "did you mean response?", "db-wrte:2": "did you mean db-write?", "explode": ""} {
		_, err := ParseKillPoint(in)
		if got := err.Error(); (want == "") == strings.Contains(got, "did you mean") || !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

func TestCheckLoopback(t *testing.T) {
	for _, dsn := range []string{
		"postgres://u@127.0.0.1:5432/db", "postgres://u@localhost/db", "postgres://u@[::1]:5432/db",
		"host=/var/run/postgresql dbname=x", "postgres://u@/db?host=/tmp",
	} {
		if err := CheckLoopback(dsn); err != nil {
			t.Errorf("%s: %v", dsn, err)
		}
	}
	for _, dsn := range []string{"postgres://u@db.example.com/db", "postgres://u@10.0.0.5/db", "host=127.0.0.1,prod.example.com dbname=x"} {
		if err := CheckLoopback(dsn); err == nil || !strings.Contains(err.Error(), "--allow-remote") {
			t.Errorf("%s: %v, want refused", dsn, err)
		}
	}
}

// A URL of another database is refused by its scheme, echoed unmangled and
// without its password.
func TestCheckLoopbackRefusesOtherSchemes(t *testing.T) {
	for _, dsn := range []string{"mysql://root:hunter2@127.0.0.1/test", "mysql://root@127.0.0.1/test"} {
		err := CheckLoopback(dsn)
		want := `bad DSN: scheme "mysql" is not PostgreSQL; want postgres://USER@HOST:PORT/DATABASE`
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", dsn, err, want)
		}
	}
	if err := CheckLoopback("postgres://u:hunter2@127.0.0.1:abc/x"); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("bad port: %v, want refused with the password masked", err)
	}
}

func TestSummaryAndKeys(t *testing.T) {
	if got := shortKeys([]string{"pay-17329887001", "pay-17329887002"}); got != "pay-17329887001, pay-17329887002" {
		t.Errorf("shortKeys = %q", got)
	}
	if got := shortKeys([]string{"3f9a1c2d3e", "77c1aa00bb"}); got != "3f9a…, 77c1…" {
		t.Errorf("shortKeys = %q", got)
	}
	if got := effectNoun("POST /v1/payment_intents"); got != "payment intent" {
		t.Errorf("effectNoun = %q", got)
	}
	r := Round{KillPoint: "response", EffectRequests: []EffectRequest{
		{Endpoint: "POST /v1/charges", IdempotencyKey: "3f9a1c2d3e", Result: ResultExecuted, Amount: "15000"},
		{Endpoint: "POST /v1/charges", IdempotencyKey: "77c1aa00bb", Result: ResultExecuted, Amount: "15000"},
	}, Attempts: []Attempt{{Delivery: 1, Index: 1, Outcome: OutcomeAcked}}}
	r.Effects = tally(r.EffectRequests)
	r.Checks = runChecks(&r, expectation{})
	rep := &Report{Rounds: []Round{{Passed: true}, r}}
	finishReport(rep)
	if want := "FAIL 1/2 rounds: duplicated charge (2 effects, keys 3f9a…, 77c1…, amount 15000 each) in round response; key drawn in the attempt (POST /v1/charges: 2 different keys 3f9a…, 77c1…) in round response"; rep.Summary != want {
		t.Errorf("summary %q\nwant    %q", rep.Summary, want)
	}
}

func TestRandomPlanIsReproducible(t *testing.T) {
	plan := func(seed int64) []string {
		h := &harness{cfg: Config{KillPoints: []KillPoint{{Kind: KillRandom}}, Rounds: 6, Seed: seed}}
		h.learned.Writes, h.cleanMS = 2, 80
		var out []string
		for _, k := range h.expandPlan([]KillPoint{{Kind: KillNone}}, true) {
			out = append(out, k.String())
		}
		return out
	}
	a, b, c := plan(7), plan(7), plan(8)
	if strings.Join(a, " ") != strings.Join(b, " ") || len(a) != 7 || a[0] != "none" {
		t.Errorf("seed 7: %v vs %v", a, b)
	}
	if strings.Join(a, " ") == strings.Join(c, " ") {
		t.Errorf("seeds 7 and 8 drew the same plan %v", a)
	}
	_ = context.Background
}
