package derive

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/idemcheck/idemcheck/derive/internal/pystr"
	"github.com/idemcheck/idemcheck/internal/testenv"
)

// The exhaustive differential compares every sequence of up to
// exhaustiveLength symbols of a class alphabet with the reference, step by
// step. A sampled differential only finds the classes it samples; this one
// covers every interaction of up to four classes.
const exhaustiveScript = "bench/exhaustive_reference.py"

// symbol is one letter of the class alphabet: a representative rune and the
// class of characters it stands for.
type symbol struct {
	r     rune
	class string
}

// preferredMark is the representative of a combining class when one of the
// class composes with a starter of the alphabet, so that composition, and
// its blocking, is tested in that class; other classes take their lowest
// code point.
var preferredMark = map[uint8]rune{
	1:   0x0338, // '=' + U+0338 → '≠'
	7:   0x093c, // U+0928 + nukta → U+0929
	8:   0x3099, // 'か' + U+3099 → 'が'
	84:  0x0c55, // U+0C46 + U+0C55 → U+0C47
	91:  0x0c56, // U+0C46 + U+0C56 → U+0C48
	202: 0x0328, // 'o' + ogonek → 'ǫ'
	216: 0x031b, // 'o' + horn → 'ơ'
	220: 0x0323, // 'o' + dot below → 'ọ'
	230: 0x030c, // 'o' + caron → 'ǒ'; 'J' + caron does not compose, 'j' + caron does
	240: 0x0345, // 'α' + ypogegrammeni → 'ᾳ'
}

// alphabetSymbols are the classes besides the combining classes.
var alphabetSymbols = []symbol{
	{0x1100, "Hangul L"}, {0x1161, "Hangul V"}, {0x11a8, "Hangul T"},
	{0xac00, "Hangul LV"}, {0xac01, "Hangul LVT"},
	{0x11a7, "jamo just below the T range: composes with nothing"},
	{0x0958, "composition exclusion (decomposes to U+0915 U+093C)"},
	{0x0344, "non-starter decomposition (U+0308 U+0301), excluded"},
	{0x212b, "singleton (Angstrom sign → U+00C5)"},
	{0x2000, "singleton that is whitespace (en quad → en space)"},
	{0xfb01, "compatibility decomposition: ligature"},
	{0x00bd, "compatibility decomposition: vulgar fraction, numeric (alnum)"},
	{0xff21, "compatibility decomposition: fullwidth capital"},
	{'o', "starter composing with marks"},
	{'O', "capital composing with marks"},
	{'J', "capital whose lowercase composes (j + caron)"},
	{'=', "symbol composing with U+0338"},
	{'α', "Greek starter composing with U+0345"},
	{'か', "kana composing with U+3099"},
	{0x0928, "Devanagari starter composing with nukta"},
	{0x0c46, "Telugu starter composing with U+0C55, U+0C56"},
	{0x0b47, "starter composing with a following starter"},
	{0x0b3e, "starter composing with a preceding starter"},
	{'1', "digit: composes with nothing"},
	{'-', "punctuation: composes with nothing, not alnum"},
	{'中', "ideograph: alnum, uncased, composes with nothing"},
	{' ', "ASCII whitespace"},
	{'\x1c', "whitespace only to Python (U+001C), escaped in JSON"},
	{'\u0085', "next line: Python whitespace, C1 control"},
	{'\u00a0', "no-break space: whitespace with a compatibility decomposition"},
	{'\u3000', "ideographic space"},
	{'\u2028', "line separator"},
	{'\u200b', "zero width space: not whitespace to Python"},
	{'İ', "capital lowercasing to two runes (i + U+0307)"},
	{'Σ', "capital sigma: final or not"},
	{'ẞ', "capital sharp s"},
	{'\'', "case-ignorable punctuation"},
	{0x00ad, "soft hyphen: case-ignorable format character"},
	{'@', "e-mail branch of pix_key"},
	{'"', "escaped in JSON"},
}

// exhaustiveAlphabet returns one representative of each canonical combining
// class, then alphabetSymbols.
func exhaustiveAlphabet(t testing.TB) []symbol {
	t.Helper()
	var lowest [256]rune
	for r := unicode.MaxRune; r >= 0; r-- {
		if c := pystr.CombiningClass(r); c != 0 {
			lowest[c] = r
		}
	}
	var out []symbol
	for c := 1; c < 256; c++ {
		if lowest[c] == 0 {
			continue
		}
		r := lowest[c]
		if p, ok := preferredMark[uint8(c)]; ok {
			if pystr.CombiningClass(p) != uint8(c) {
				t.Fatalf("preferred mark %U has class %d, not %d", p, pystr.CombiningClass(p), c)
			}
			r = p
		}
		out = append(out, symbol{r, fmt.Sprintf("combining class %d", c)})
	}
	return append(out, alphabetSymbols...)
}

// exhaustiveLength is the longest sequence compared: 4 with
// IDEMCHECK_TESTS=full (CI), 3 by default, 2 with -short;
// IDEMCHECK_EXHAUSTIVE_LENGTH overrides it.
func exhaustiveLength(t testing.TB) int {
	t.Helper()
	if s := os.Getenv("IDEMCHECK_EXHAUSTIVE_LENGTH"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 6 {
			t.Fatalf("IDEMCHECK_EXHAUSTIVE_LENGTH=%q: want 1 to 6", s)
		}
		return n
	}
	switch {
	case testenv.Full():
		return 4
	case testing.Short():
		return 2
	}
	return 3
}

// seqBlock is a block of sequences: those of one length sharing all but
// their last two symbols (exhaustive_reference.py numbers them the same way).
type seqBlock struct {
	prefix []int // symbol indexes
	tail   int   // 1 or 2 symbols after the prefix
}

func seqBlocks(alphabetSize, maxLength int) []seqBlock {
	var out []seqBlock
	for length := 1; length <= maxLength; length++ {
		prefixLen := max(length-2, 0)
		prefix := make([]int, prefixLen)
		for {
			out = append(out, seqBlock{prefix: slices.Clone(prefix), tail: length - prefixLen})
			i := prefixLen - 1
			for i >= 0 && prefix[i] == alphabetSize-1 {
				prefix[i] = 0
				i--
			}
			if i < 0 {
				break
			}
			prefix[i]++
		}
	}
	return out
}

// each calls f with every sequence of the block, in the reference's order.
func (b seqBlock) each(alphabet []string, f func(s string)) {
	var buf strings.Builder
	for _, i := range b.prefix {
		buf.WriteString(alphabet[i])
	}
	prefix := buf.String()
	for _, x := range alphabet {
		if b.tail == 1 {
			f(prefix + x)
			continue
		}
		for _, y := range alphabet {
			f(prefix + x + y)
		}
	}
}

// stepResults are the answers of every step of the rules for one sequence,
// as exhaustive_reference.py writes them.
type stepResults struct {
	S         string `json:"s"`
	NFC       string `json:"nfc"`
	Lower     string `json:"lower"`
	Strip     string `json:"strip"`
	IsAlnum   bool   `json:"isalnum"`
	TrimLower string `json:"trim_lower"`
	Pix       string `json:"pix"`
	PixNFC    bool   `json:"pix_nfc"` // reference side only: its pix_key result is NFC
	Key       string `json:"key"`     // the key; on the Go side a refusal's reason
	refused   error  // Go side: the refusal
}

// record is the line a block's digest covers. A key refused for its
// unnormalized pix_key is written as that reason on both sides.
func (r *stepResults) record(dst []byte) []byte {
	alnum := "0"
	if r.IsAlnum {
		alnum = "1"
	}
	for _, f := range []string{r.NFC, r.Lower, r.Strip, alnum, r.TrimLower, r.Pix} {
		dst = append(dst, f...)
		dst = append(dst, 0)
	}
	return append(append(dst, r.Key...), '\n')
}

// goSteps computes every step with this implementation: pystr for the
// string functions, the rules themselves, and the key of a batch line.
type goSteps struct {
	batch   *batchWorker
	line    []byte
	scratch []byte
	runes   []rune
}

func newGoSteps() *goSteps {
	return &goSteps{batch: newBatchWorker(DefaultSchema(), []byte(differentialSecret))}
}

func (g *goSteps) run(s string) stepResults {
	res := stepResults{S: s, Lower: pystr.Lower(s), Strip: string(pystr.Strip(s))}
	res.NFC = string(pystr.AppendNFC(nil, s, &g.runes))
	res.IsAlnum = s != ""
	for _, r := range s {
		res.IsAlnum = res.IsAlnum && pystr.IsAlnum(r)
	}
	raw, _ := appendString(nil, s)
	in := RuleInput{Value: Value{Kind: KindString, Raw: raw, escaped: true}}
	tl, err := appendTrimLower(nil, &in, &g.scratch)
	res.TrimLower = string(tl)
	if err != nil {
		res.TrimLower = "refused: " + err.Error()
	}
	// The pix_key value even when refused: it is the reference's value.
	pix, err := appendPixKey(nil, &in, &g.scratch)
	res.Pix = string(pix)
	if reason, _ := RefusalReason(err); err != nil && reason != ReasonUnnormalizedKey {
		res.Pix = "refused: " + err.Error()
	}
	g.line = append(g.line[:0], `{"tenant":"t","action":"pix.cobranca","payload":{"cliente_id":`...)
	g.line = append(g.line, raw...)
	g.line = append(g.line, `,"valor":"1","chave_pix_destino":`...)
	g.line = append(g.line, raw...)
	g.line = append(g.line, `,"referencia_intencao":`...)
	g.line = append(g.line, raw...)
	g.line = append(g.line, "}}"...)
	_, key, err := g.batch.derive(g.line)
	res.Key = string(key)
	if err != nil {
		res.refused = err
		res.Key = "refused: " + err.Error()
		if reason, _ := RefusalReason(err); reason == ReasonUnnormalizedKey {
			res.Key = string(reason)
		}
	}
	return res
}

// blockDigest is a block's count, unnormalized-key count and digest.
type blockDigest struct {
	count, unnormalized int
	sum                 string
}

func goDigests(alphabet []string, blocks []seqBlock) []blockDigest {
	out := make([]blockDigest, len(blocks))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			g := newGoSteps()
			var rec []byte
			for n := range next {
				h := sha256.New()
				d := blockDigest{}
				blocks[n].each(alphabet, func(s string) {
					r := g.run(s)
					d.count++
					if r.Key == string(ReasonUnnormalizedKey) {
						d.unnormalized++
					}
					rec = r.record(rec[:0])
					h.Write(rec)
				})
				d.sum = hex.EncodeToString(h.Sum(nil))
				out[n] = d
			}
		})
	}
	for n := range blocks {
		next <- n
	}
	close(next)
	wg.Wait()
	return out
}

// exhaustiveConfig is what exhaustive_reference.py reads on stdin.
type exhaustiveConfig struct {
	Alphabet  []string `json:"alphabet"`
	MaxLength int      `json:"max_length"`
	Secret    string   `json:"secret"`
	Tenant    string   `json:"tenant"`
	Workers   int      `json:"workers"`
	Worker    int      `json:"worker"`
	Detail    []int    `json:"detail"`
}

// runExhaustiveReference runs one exhaustive_reference.py and hands each of
// its output lines to line.
func runExhaustiveReference(cfg exhaustiveConfig, line func([]byte) error) error {
	in, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	cmd := exec.Command(referencePython, exhaustiveScript)
	cmd.Env = append(os.Environ(), "PYTHONUTF8=1", "PYTHONIOENCODING=utf-8")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	var lineErr error
	for lineErr == nil && sc.Scan() {
		lineErr = line(sc.Bytes())
	}
	if lineErr != nil {
		cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	for _, err := range []error{lineErr, sc.Err(), waitErr} {
		if err != nil {
			return fmt.Errorf("%s: %v: %s", exhaustiveScript, err, lastBytes(stderr.Bytes(), 2000))
		}
	}
	return nil
}

// pythonDigests runs the reference side in `workers` processes, each taking
// every workers-th block.
func pythonDigests(t *testing.T, cfg exhaustiveConfig, nblocks, workers int) []blockDigest {
	t.Helper()
	out := make([]blockDigest, nblocks)
	got := make([]bool, nblocks)
	errs := make([]error, workers)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		c := cfg
		c.Workers, c.Worker = workers, w
		wg.Go(func() {
			errs[w] = runExhaustiveReference(c, func(line []byte) error {
				var n int
				var d blockDigest
				if _, err := fmt.Sscanf(string(line), "%d %d %d %s", &n, &d.count, &d.unnormalized, &d.sum); err != nil || n < 0 || n >= nblocks {
					return fmt.Errorf("bad line %q", line)
				}
				mu.Lock()
				out[n], got[n] = d, true
				mu.Unlock()
				return nil
			})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if i := slices.Index(got, false); i >= 0 {
		t.Fatalf("%s did not answer block %d", exhaustiveScript, i)
	}
	return out
}

// TestExhaustiveDifferential: every sequence of 1 to exhaustiveLength symbols
// of the class alphabet gets, from Go and from the reference, the same NFC,
// lower(), strip(), isalnum(), trim_lower and pix_key values and the same
// key, or the unnormalized-key refusal exactly where the reference's
// pix_key value is not NFC. Blocks whose digests differ are compared
// sequence by sequence.
func TestExhaustiveDifferential(t *testing.T) {
	if _, err := os.Stat(referencePython); err != nil {
		t.Skipf("no %s to run the reference function", referencePython)
	}
	symbols := exhaustiveAlphabet(t)
	alphabet := make([]string, len(symbols))
	for i, s := range symbols {
		alphabet[i] = string(s.r)
	}
	length := exhaustiveLength(t)
	blocks := seqBlocks(len(alphabet), length)
	cfg := exhaustiveConfig{Alphabet: alphabet, MaxLength: length, Secret: differentialSecret, Tenant: "t"}

	var goSide []blockDigest
	var wg sync.WaitGroup
	wg.Go(func() { goSide = goDigests(alphabet, blocks) })
	pySide := pythonDigests(t, cfg, len(blocks), max(1, min(runtime.NumCPU(), 4)))
	wg.Wait()

	sequences, refused := 0, 0
	var differing []int
	for n := range blocks {
		sequences += pySide[n].count
		refused += pySide[n].unnormalized
		if goSide[n] != pySide[n] {
			differing = append(differing, n)
		}
	}
	diffKeys, diffSteps := 0, 0
	if len(differing) > 0 {
		t.Errorf("%d of %d blocks differ from the reference", len(differing), len(blocks))
		diffKeys, diffSteps = compareBlocks(t, cfg, differing)
	}
	t.Logf("%d symbols, lengths 1 to %d: %d sequences in %d blocks, %d differing keys, %d differing steps, %d blocks differ; refused on purpose (unnormalized-key) where the reference gives a key: %d",
		len(alphabet), length, sequences, len(blocks), diffKeys, diffSteps, len(differing), refused)
	if want := wantSequences(len(alphabet), length); sequences != want {
		t.Errorf("the reference answered %d sequences, want %d", sequences, want)
	}
}

func wantSequences(alphabetSize, length int) int {
	n, p := 0, 1
	for range length {
		p *= alphabetSize
		n += p
	}
	return n
}

// maxDetailBlocks bounds the blocks compared one sequence at a time.
const maxDetailBlocks = 20

// compareBlocks gets the reference's answers to every sequence of the
// differing blocks and reports what differs.
func compareBlocks(t *testing.T, cfg exhaustiveConfig, differing []int) (diffKeys, diffSteps int) {
	t.Helper()
	if len(differing) > maxDetailBlocks {
		t.Errorf("%d blocks differ; the first %d are compared one sequence at a time", len(differing), maxDetailBlocks)
		differing = differing[:maxDetailBlocks]
	}
	cfg.Workers, cfg.Detail = 1, differing
	g := newGoSteps()
	shown := 0
	err := runExhaustiveReference(cfg, func(line []byte) error {
		var want stepResults
		if err := json.Unmarshal(line, &want); err != nil {
			return fmt.Errorf("%q: %v", line, err)
		}
		got := g.run(want.S)
		var diffs []string
		for _, f := range []struct {
			name      string
			got, want any
		}{
			{"NFC", got.NFC, want.NFC}, {"lower()", got.Lower, want.Lower}, {"strip()", got.Strip, want.Strip},
			{"isalnum()", got.IsAlnum, want.IsAlnum}, {"trim_lower", got.TrimLower, want.TrimLower}, {"pix_key", got.Pix, want.Pix},
		} {
			if f.got != f.want {
				diffs = append(diffs, fmt.Sprintf("%s: go %+q, reference %+q", f.name, f.got, f.want))
			}
		}
		switch {
		case got.refused == nil && got.Key != want.Key:
			diffKeys++
			diffs = append(diffs, fmt.Sprintf("key: go %s, reference %s", got.Key, want.Key))
		case got.refused != nil && want.PixNFC:
			diffs = append(diffs, fmt.Sprintf("key: go refuses (%v), reference gives %s for a normalized value", got.refused, want.Key))
		}
		if len(diffs) == 0 {
			return nil
		}
		diffSteps++
		if shown++; shown <= 20 {
			t.Errorf("%+q (%s):\n  %s", want.S, codePoints(want.S), strings.Join(diffs, "\n  "))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return diffKeys, diffSteps
}

// codePoints spells a sequence as its code points.
func codePoints(s string) string {
	var parts []string
	for _, r := range s {
		parts = append(parts, fmt.Sprintf("U+%04X", r))
	}
	return strings.Join(parts, " ")
}

// TestExhaustiveAlphabet: the alphabet holds every combining class of the
// tables once, each class symbol with that class, and no rune twice.
func TestExhaustiveAlphabet(t *testing.T) {
	symbols := exhaustiveAlphabet(t)
	classes := map[uint8]bool{}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if c := pystr.CombiningClass(r); c != 0 {
			classes[c] = true
		}
	}
	seen := map[rune]bool{}
	covered := map[uint8]int{}
	for _, s := range symbols {
		if seen[s.r] || !utf8.ValidRune(s.r) {
			t.Errorf("%U (%s) twice or invalid", s.r, s.class)
		}
		seen[s.r] = true
		if strings.HasPrefix(s.class, "combining class ") {
			covered[pystr.CombiningClass(s.r)]++
		}
	}
	for c := range classes {
		if covered[c] != 1 {
			t.Errorf("combining class %d has %d representatives, want 1", c, covered[c])
		}
	}
	if len(classes) < 50 {
		t.Errorf("only %d combining classes in the tables", len(classes))
	}
	t.Logf("%d symbols: %d combining classes and %d other classes", len(symbols), len(classes), len(alphabetSymbols))
}
