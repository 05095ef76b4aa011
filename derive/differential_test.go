package derive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// The reference function and the Python that runs it.
const (
	referenceScript = "bench/reference_derive.py"
	referencePython = "/usr/bin/python3"
	// referenceCorpus holds hostile lines with the reference's answers,
	// so a machine without Python still checks parity.
	referenceCorpus  = "testdata/reference-corpus.jsonl"
	differentialSeed = 20261130
	// differentialSecret is the HMAC secret of the differential runs and
	// of the corpus; it protects nothing.
	differentialSecret = "differential-secret"
)

var updateCorpus = flag.Bool("update-reference-corpus", false,
	"regenerate "+referenceCorpus+" with "+referencePython)

// differentialLines is how many lines TestDifferential compares: small by
// default so go test stays fast, IDEMCHECK_DIFFERENTIAL_LINES in CI.
func differentialLines(t *testing.T) int {
	if s := os.Getenv("IDEMCHECK_DIFFERENTIAL_LINES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("IDEMCHECK_DIFFERENTIAL_LINES=%q: want a positive number", s)
		}
		return n
	}
	if testing.Short() {
		return 1000
	}
	return 6000
}

// goAnswer is this implementation's answer to one batch line.
type goAnswer struct {
	key string
	err error
}

func goAnswers(lines []string) []goAnswer {
	b := newBatchWorker(DefaultSchema(), []byte(differentialSecret))
	out := make([]goAnswer, len(lines))
	for i, l := range lines {
		_, key, err := b.derive([]byte(l))
		out[i] = goAnswer{key: string(key), err: err}
	}
	return out
}

// refAnswer is the reference's answer: a key, or an error message.
type refAnswer struct {
	Key   string `json:"key"`
	Error string `json:"error"`
}

// runReference runs reference_derive.py on lines and returns its answers,
// or skips the test when Python is not at hand.
func runReference(t testing.TB, lines []string) []refAnswer {
	t.Helper()
	if _, err := os.Stat(referencePython); err != nil {
		t.Skipf("no %s to run the reference function", referencePython)
	}
	cmd := exec.Command(referencePython, referenceScript)
	cmd.Env = append(os.Environ(), "IDEMPOTENCY_HMAC_KEY="+differentialSecret, "PYTHONUTF8=1", "PYTHONIOENCODING=utf-8")
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && cmd.ProcessState.ExitCode() != 1 { // 1: some lines failed
		t.Fatalf("reference_derive.py: %v: %s", err, stderr.String())
	}
	var res []refAnswer
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var a refAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("reference output %q: %v", sc.Text(), err)
		}
		res = append(res, a)
	}
	if len(res) != len(lines) {
		t.Fatalf("reference answered %d of %d lines", len(res), len(lines))
	}
	return res
}

// parity tallies a comparison.
type parity struct {
	lines, keys, bothRefuse int
	refusals                map[Reason]int // the reference gives a key, we refuse on purpose
	differ                  []string
}

// compare judges one line: the same key, a refusal by both, or a
// deliberate refusal of ours. Anything else differs.
func (p *parity) compare(line string, got goAnswer, want refAnswer) {
	p.lines++
	reason, deliberate := RefusalReason(got.err)
	switch {
	case got.err == nil && want.Error == "" && got.key == want.Key:
		p.keys++
		return
	case got.err != nil && want.Error != "":
		p.bothRefuse++
		return
	case got.err != nil && deliberate:
		if p.refusals == nil {
			p.refusals = map[Reason]int{}
		}
		p.refusals[reason]++
		return
	}
	if len(p.differ) < 10 {
		p.differ = append(p.differ, fmt.Sprintf("%s\n  go: key %q err %v\n  reference: key %q err %q",
			quoteValue(line), got.key, got.err, want.Key, want.Error))
	} else {
		p.differ = append(p.differ, "")
	}
}

func (p *parity) report(t *testing.T) {
	t.Helper()
	var reasons []string
	for _, r := range slices.Sorted(maps.Keys(p.refusals)) {
		reasons = append(reasons, fmt.Sprintf("%s %d", r, p.refusals[r]))
	}
	t.Logf("%d lines: %d same key, %d refused by both, %d differing keys; refused on purpose where the reference gives a key: %s",
		p.lines, p.keys, p.bothRefuse, len(p.differ), strings.Join(reasons, ", "))
	for _, d := range p.differ {
		if d != "" {
			t.Errorf("differs: %s", d)
		}
	}
}

func hostileLines(n int, seed uint64) []string {
	g := newHostileGen(seed)
	lines := make([]string, n)
	for i := range lines {
		lines[i] = g.line(i)
	}
	return lines
}

// TestDifferential compares keys with the reference function on seeded
// hostile lines (IDEMCHECK_DIFFERENTIAL_LINES of them; CI runs 200,000):
// every line must get the reference's key or a refusal, and a refusal
// where the reference gives a key must be deliberate (have a Reason).
func TestDifferential(t *testing.T) {
	lines := hostileLines(differentialLines(t), differentialSeed)
	var want []refAnswer
	var got []goAnswer
	var wg sync.WaitGroup
	wg.Go(func() { got = goAnswers(lines) })
	want = runReference(t, lines)
	wg.Wait()
	var p parity
	for i, l := range lines {
		p.compare(l, got[i], want[i])
	}
	p.report(t)
	if p.keys < p.lines/4 {
		t.Errorf("only %d of %d lines got a key: the generator no longer makes valid input", p.keys, p.lines)
	}
}

// corpusEntry is one line of the checked-in reference corpus.
type corpusEntry struct {
	Line string `json:"line"`
	refAnswer
}

func readCorpus(t testing.TB) []corpusEntry {
	t.Helper()
	data, err := os.ReadFile(referenceCorpus)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusEntry
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var e corpusEntry
		if err := dec.Decode(&e); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", referenceCorpus, err)
		}
		out = append(out, e)
	}
	return out
}

// TestReferenceCorpus checks the recorded answers of the reference, with
// no Python needed. -update-reference-corpus regenerates them.
func TestReferenceCorpus(t *testing.T) {
	if *updateCorpus {
		writeCorpus(t)
	}
	corpus := readCorpus(t)
	lines := make([]string, len(corpus))
	for i, e := range corpus {
		lines[i] = e.Line
	}
	var p parity
	for i, a := range goAnswers(lines) {
		p.compare(lines[i], a, corpus[i].refAnswer)
	}
	p.report(t)
	if p.lines < 1000 {
		t.Errorf("corpus has only %d lines", p.lines)
	}
}

// writeCorpus records the reference's answers to hostile lines, plus the
// shared vectors' payloads, in referenceCorpus.
func writeCorpus(t *testing.T) {
	lines := hostileLines(3000, differentialSeed+1)
	want := runReference(t, lines)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for i, l := range lines {
		if err := enc.Encode(corpusEntry{Line: l, refAnswer: want[i]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(referenceCorpus, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzReferenceParity: a mutated batch line gets the reference's key or a
// refusal. Its seeds are the corpus lines, checked against the recorded
// answers, so plain go test checks parity without Python; while fuzzing,
// new lines go to a running reference_derive.py when Python is present.
func FuzzReferenceParity(f *testing.F) {
	corpus := readCorpus(f)
	recorded := make(map[string]refAnswer, len(corpus))
	for _, e := range corpus {
		f.Add(e.Line)
		recorded[e.Line] = e.refAnswer
	}
	var ref *liveReference
	f.Cleanup(func() {
		if ref != nil {
			ref.close()
		}
	})
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") || !utf8.ValidString(line) {
			// One line per input (Python also splits at a lone \r); the
			// reference cannot even read a line that is not UTF-8.
			return
		}
		got := goAnswers([]string{line})[0]
		want, ok := recorded[line]
		if !ok {
			if ref == nil {
				ref = startReference(t)
			}
			if want, ok = ref.answer(t, line); !ok {
				return
			}
		}
		var p parity
		p.compare(line, got, want)
		for _, d := range p.differ {
			t.Errorf("differs: %s", d)
		}
	})
}

// liveReference is a reference_derive.py answering one line at a time.
type liveReference struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
}

func startReference(t *testing.T) *liveReference {
	if _, err := os.Stat(referencePython); err != nil {
		return &liveReference{}
	}
	r := &liveReference{stderr: new(bytes.Buffer)}
	cmd := exec.Command(referencePython, "-u", referenceScript)
	cmd.Env = append(os.Environ(), "IDEMPOTENCY_HMAC_KEY="+differentialSecret, "PYTHONUTF8=1", "PYTHONIOENCODING=utf-8")
	cmd.Stderr = r.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.cmd, r.in, r.out = cmd, in, bufio.NewReaderSize(out, 1<<20)
	return r
}

// answer asks the reference about one line. It reports false when there
// is no reference, or when the line made it crash (reference_derive.py
// dies on what it cannot print, such as a lone surrogate in an id): then
// there is no reference answer to compare with, and the next line gets a
// new process.
func (r *liveReference) answer(t *testing.T, line string) (refAnswer, bool) {
	if r.cmd == nil {
		return refAnswer{}, false
	}
	var a refAnswer
	_, err := io.WriteString(r.in, line+"\n")
	var resp []byte
	if err == nil {
		resp, err = r.out.ReadBytes('\n')
	}
	if err == nil {
		err = json.Unmarshal(resp, &a)
	}
	if err != nil {
		t.Logf("the reference gave no answer to %s (%v): %s", quoteValue(line), err, lastBytes(r.stderr.Bytes(), 300))
		r.close()
		*r = *startReference(t)
		return refAnswer{}, false
	}
	return a, true
}

func lastBytes(b []byte, n int) []byte { return b[max(0, len(b)-n):] }

func (r *liveReference) close() {
	if r.cmd != nil {
		r.in.Close()
		r.cmd.Process.Kill()
		r.cmd.Wait()
	}
}
