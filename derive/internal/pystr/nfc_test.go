package pystr

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// nfcAlphabet is what makes NFC hard: every rune with a combining class,
// every rune with a decomposition, the second halves of compositions, the
// Hangul jamo and syllables, and plain starters.
func nfcAlphabet() []rune {
	var out []rune
	for r := range cccTable {
		out = append(out, r)
	}
	for r := range decompTable {
		out = append(out, r)
	}
	for r := rune(0); r < propsLimit; r++ {
		if propsOf(r)&propComposesBackward != 0 {
			out = append(out, r)
		}
	}
	for r := rune(hangulLBase); r < hangulLBase+hangulLCount; r++ {
		out = append(out, r)
	}
	for r := rune(hangulVBase); r < hangulVBase+hangulVCount; r++ {
		out = append(out, r)
	}
	for r := rune(hangulTBase); r < hangulTBase+hangulTCount; r++ {
		out = append(out, r)
	}
	out = append(out, 'a', 'A', 'e', 'o', 'u', ' ', '-', '@', 'Σ', 'İ', 0xAC00, 0xAC01, 0xD7A3, 0x034F)
	return out
}

// nfcStrings returns n seeded strings of the kinds above, a share of them
// with runs of 20 to 200 combining marks (beyond the Stream-Safe limit of
// 30) and Hangul jamo mixed with marks.
func nfcStrings(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 11))
	alpha := nfcAlphabet()
	marks := make([]rune, 0, len(cccTable))
	for r := range cccTable {
		marks = append(marks, r)
	}
	// Map iteration order is random: sort for a reproducible sequence.
	slicesSort(alpha)
	slicesSort(marks)
	out := make([]string, 0, n)
	for range n {
		var b strings.Builder
		for range rng.IntN(6) + 1 {
			switch rng.IntN(5) {
			case 0: // a long run of marks after a base
				b.WriteRune(alpha[rng.IntN(len(alpha))])
				m := rng.IntN(180) + 20
				few := marks[rng.IntN(len(marks)-4):]
				for range m {
					if rng.IntN(2) == 0 {
						b.WriteRune(few[rng.IntN(4)])
					} else {
						b.WriteRune(marks[rng.IntN(len(marks))])
					}
				}
			case 1: // jamo with marks
				for range rng.IntN(6) + 1 {
					switch rng.IntN(4) {
					case 0:
						b.WriteRune(hangulLBase + rune(rng.IntN(hangulLCount+2)))
					case 1:
						b.WriteRune(hangulVBase + rune(rng.IntN(hangulVCount+2)) - 1)
					case 2:
						b.WriteRune(hangulTBase + rune(rng.IntN(hangulTCount+2)))
					default:
						b.WriteRune(marks[rng.IntN(len(marks))])
					}
				}
			default:
				for range rng.IntN(8) + 1 {
					b.WriteRune(alpha[rng.IntN(len(alpha))])
				}
			}
		}
		out = append(out, b.String())
	}
	return out
}

func slicesSort(s []rune) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// TestNFCAgainstLivePython compares AppendNFC with CPython's
// unicodedata.normalize("NFC") on generated strings, when the Python that
// generated the tables is at hand.
func TestNFCAgainstLivePython(t *testing.T) {
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("no /usr/bin/python3: the checked-in cases still run in TestNFCCases")
	}
	n := 5000
	if testing.Short() {
		n = 1000
	}
	in := nfcStrings(n, 1)
	want := pythonNFC(t, py, in)
	var scratch []rune
	bad := 0
	for i, s := range in {
		if got := string(AppendNFC(nil, s, &scratch)); got != want[i] {
			bad++
			if bad <= 5 {
				t.Errorf("NFC(%+q)\n got %+q\nwant %+q", s, got, want[i])
			}
		}
	}
	t.Logf("%d strings, %d differ from Python %s", n, bad, PythonVersion)
}

func pythonNFC(t *testing.T, py string, in []string) []string {
	t.Helper()
	var stdin bytes.Buffer
	enc := json.NewEncoder(&stdin)
	for _, s := range in {
		enc.Encode(s)
	}
	cmd := exec.Command(py, "-c", `import sys, json, unicodedata
if unicodedata.unidata_version != sys.argv[1]:
    sys.exit("unicodedata " + unicodedata.unidata_version + ", tables " + sys.argv[1])
for line in sys.stdin:
    print(json.dumps(unicodedata.normalize("NFC", json.loads(line))))`, UnicodeVersion)
	cmd.Stdin = &stdin
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("python3 cannot check these tables: %v", err)
	}
	var res []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var s string
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		res = append(res, s)
	}
	if len(res) != len(in) {
		t.Fatalf("python answered %d of %d", len(res), len(in))
	}
	return res
}

func TestIsNFCAgreesWithAppendNFC(t *testing.T) {
	var scratch []rune
	for _, s := range nfcStrings(3000, 2) {
		if IsNFC(s) && string(AppendNFC(nil, s, &scratch)) != s {
			t.Errorf("IsNFC(%+q) but NFC changes it", s)
		}
		once := string(AppendNFC(nil, s, &scratch))
		if !utf8.ValidString(once) || string(AppendNFC(nil, once, &scratch)) != once {
			t.Errorf("NFC not idempotent on %+q", s)
		}
	}
	for r := rune(0); r < 0x300; r++ {
		if propsOf(r)&(0xff|propNFCNever|propComposesBackward) != 0 {
			t.Errorf("%U below U+0300 needs NFC work: the fast paths skip it", r)
		}
	}
}
