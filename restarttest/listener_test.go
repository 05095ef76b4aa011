package restarttest

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idemcheck/idemcheck/internal/testenv"
)

// Two runs on one --deliver port: a correct API and one without a request
// fingerprint, started a moment apart. Each gives the verdict it gives
// alone, or stops with exit 2 naming the other run's process: never a
// verdict on answers the other run's server gave.
func TestTwoRunsOnOnePortNeverJudgeEachOther(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the listener's owner is read from /proc")
	}
	right := apiConfig(t, "right")
	flawed := apiConfig(t, "nofingerprint")
	flawed.Handler = strings.Replace(right.Handler, apiServer(t, "right"), apiServer(t, "nofingerprint"), 1)
	flawed.Delivery.URL = right.Delivery.URL
	kps := []KillPoint{{Kind: KillNone}, {Kind: KillResponse}, {Kind: KillConcurrent, N: 2}}
	right.KillPoints, flawed.KillPoints = kps, kps
	n := testenv.Repeat(t)
	stopped := 0
	for i := 0; i < n; i++ {
		var wg sync.WaitGroup
		outcome := make([]string, 2)
		for j, cfg := range []Config{right, flawed} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if j == 1 {
					time.Sleep(time.Duration(rand.IntN(500)) * time.Millisecond)
				}
				ctx, cancel := context.WithTimeout(context.Background(), runLimit)
				defer cancel()
				rep, err := Run(ctx, cfg)
				outcome[j] = judgeAlone(rep, err, j == 0)
			}()
		}
		wg.Wait()
		for j, o := range outcome {
			switch {
			case o == "stopped":
				stopped++
			case o != "alone":
				t.Errorf("pair %d, run %d: %s", i+1, j+1, o)
			}
		}
	}
	t.Logf("%d pairs: %d of %d runs stopped with exit 2, the others gave their own verdict", n, stopped, 2*n)
}

// judgeAlone says "alone" when the run gave the verdict it gives alone,
// "stopped" when it stopped naming a listener not of its own, else what
// went wrong.
func judgeAlone(rep *Report, err error, correct bool) string {
	var env *EnvError
	if errors.As(err, &env) {
		if strings.Contains(env.Error(), "(the --deliver port)") || strings.Contains(env.Error(), "already listens") {
			return "stopped"
		}
		return "exit 2 for another reason: " + env.Error()
	}
	if err != nil {
		return err.Error()
	}
	failed := failedChecks(rep)
	if correct {
		if rep.Verdict != VerdictPass {
			return "the correct API was judged " + rep.Verdict + ": " + fmtFailed(failed)
		}
		return "alone"
	}
	if len(failed) != 1 || !failed["none/"+CheckMismatchRejected] {
		return "the API without a fingerprint failed " + fmtFailed(failed) + ", want only none/mismatch-rejected"
	}
	return "alone"
}

func fmtFailed(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return strings.Join(out, ", ")
}

// A listening socket that no process holds is one being released (a killed
// server's, on a loaded machine): checkOwner waits for it to go instead of
// naming a foreign listener, and names one only when it stays.
func TestCheckOwnerWaitsOutASocketBeingReleased(t *testing.T) {
	t.Parallel()
	s, err := newServer("true", "http://127.0.0.1:8999/", nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	s.ownerOf = func(int, string) (bool, bool, string, bool) {
		calls++
		return calls < 4, false, "", true // held by nobody three times, then gone
	}
	if err := s.checkOwner("before the handler started"); err != nil {
		t.Fatalf("a socket released after %d looks was taken for a foreign listener: %v", calls, err)
	}

	stays, err := newServer("true", "http://127.0.0.1:8999/", nil)
	if err != nil {
		t.Fatal(err)
	}
	stays.ownerOf = func(int, string) (bool, bool, string, bool) { return true, false, "", true }
	began := time.Now()
	err = stays.checkOwner("before the handler started")
	if err == nil || !strings.Contains(err.Error(), "may not inspect") {
		t.Fatalf("a socket that stays without a visible holder: got %v, want a foreign listener", err)
	}
	if waited := time.Since(began); waited < releaseWait {
		t.Errorf("named a foreign listener after %s, before the %s release wait", waited, releaseWait)
	}
}
