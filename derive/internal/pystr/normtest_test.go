package pystr

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// normalizationTest is Unicode's conformance test for normalization,
// restricted to the characters assigned in the tables' Unicode version
// (gen_normtest.py).
const normalizationTest = "testdata/NormalizationTest.txt.gz"

// normTestLine is one test line: its five columns (source, NFC, NFD, NFKC,
// NFKD) as strings, and the part of the file it is in.
type normTestLine struct {
	part    string
	columns [5]string
	text    string
}

func readNormalizationTest(t *testing.T, r io.Reader) (version string, lines []normTestLine) {
	t.Helper()
	sc := bufio.NewScanner(r)
	part := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "@Version "):
			version = strings.TrimPrefix(line, "@Version ")
			continue
		case strings.HasPrefix(line, "@"):
			part = strings.Fields(line)[0]
			continue
		}
		fields := strings.Split(line, ";")
		if len(fields) < 5 {
			t.Fatalf("%s: %q has %d columns, want 5", normalizationTest, line, len(fields))
		}
		l := normTestLine{part: part, text: line}
		for i := range l.columns {
			var b strings.Builder
			for _, h := range strings.Fields(fields[i]) {
				r, err := strconv.ParseUint(h, 16, 32)
				if err != nil || !utf8.ValidRune(rune(r)) {
					t.Fatalf("%s: %q: bad code point %q", normalizationTest, line, h)
				}
				b.WriteRune(rune(r))
			}
			l.columns[i] = b.String()
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return version, lines
}

func openGzip(t *testing.T, path string) io.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return z
}

// TestNormalizationConformance runs Unicode's NormalizationTest.txt against
// AppendNFC: every line's NFC invariants (c2 == NFC(c1) == NFC(c2) ==
// NFC(c3), c4 == NFC(c4) == NFC(c5)), IsNFC never claiming a string NFC
// changes, and part 2 of the conformance clause: every assigned character
// not listed in Part 1 is its own NFC.
func TestNormalizationConformance(t *testing.T) {
	version, lines := readNormalizationTest(t, openGzip(t, normalizationTest))
	if version != UnicodeVersion {
		t.Fatalf("%s is restricted to Unicode %s, the tables are %s: run go generate", normalizationTest, version, UnicodeVersion)
	}
	var scratch []rune
	nfc := func(s string) string { return string(AppendNFC(nil, s, &scratch)) }
	bad := 0
	fail := func(l normTestLine, format string, args ...any) {
		bad++
		if bad <= 10 {
			t.Errorf("%s %s: "+format, append([]any{l.part, l.text}, args...)...)
		}
	}
	listed := map[rune]bool{}
	for _, l := range lines {
		c := l.columns
		for i, want := range map[int]string{0: c[1], 1: c[1], 2: c[1], 3: c[3], 4: c[3]} {
			if got := nfc(c[i]); got != want {
				fail(l, "NFC(c%d) = %+q, want %+q", i+1, got, want)
			}
		}
		for i, s := range c {
			if IsNFC(s) && nfc(s) != s {
				fail(l, "IsNFC(c%d) but NFC changes it", i+1)
			}
		}
		if r, n := utf8.DecodeRuneInString(c[0]); l.part == "@Part1" && n == len(c[0]) {
			listed[r] = true
		}
	}
	unlisted := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if listed[r] || !utf8.ValidRune(r) || !unicode.Is(assignedTable, r) {
			continue
		}
		unlisted++
		// IsNFC may say "maybe" (false) for a mark that could compose
		// with what precedes it; NFC itself must leave the rune alone.
		if s := string(r); nfc(s) != s {
			bad++
			if bad <= 10 {
				t.Errorf("%U is not listed in Part 1, so NFC must leave it alone: NFC = %+q", r, nfc(s))
			}
		}
	}
	if len(lines) < 18000 || len(listed) < 10000 {
		t.Fatalf("%s: only %d lines, %d characters in Part 1", normalizationTest, len(lines), len(listed))
	}
	t.Logf("Unicode %s conformance: %d test lines (%d characters of Part 1), %d other assigned characters; %d failures",
		version, len(lines), len(listed), unlisted, bad)
}

// TestNormalizationTestCopyIsCurrent regenerates the restricted copy from
// Debian's unicode-data when it and the Python of the tables' Unicode
// version are at hand, and compares: the copy in testdata is exactly what
// gen_normtest.py keeps of the source it names.
func TestNormalizationTestCopyIsCurrent(t *testing.T) {
	const source = "/usr/share/unicode/NormalizationTest.txt.bz2"
	const py = "/usr/bin/python3"
	for _, p := range []string{source, py} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("no %s (Debian unicode-data, python3): the copy in testdata still runs in TestNormalizationConformance", p)
		}
	}
	if out, err := exec.Command(py, "-c", "import unicodedata; print(unicodedata.unidata_version)").Output(); err != nil ||
		strings.TrimSpace(string(out)) != UnicodeVersion {
		t.Skipf("%s has Unicode %s, the tables %s", py, strings.TrimSpace(string(out)), UnicodeVersion)
	}
	f, err := os.Open(source)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	title, _ := bufio.NewReader(bzip2.NewReader(f)).ReadString('\n')
	checked, err := io.ReadAll(openGzip(t, normalizationTest))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(checked, []byte(strings.TrimSpace(title)+",")) {
		t.Skipf("%s is %s; the copy was made from another version", source, strings.TrimSpace(title))
	}
	out := filepath.Join(t.TempDir(), "NormalizationTest.txt.gz")
	cmd := exec.Command(py, "gen_normtest.py", source, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen_normtest.py: %v: %s", err, msg)
	}
	fresh, err := io.ReadAll(openGzip(t, out))
	if err != nil {
		t.Fatal(err)
	}
	// The header names the Python it ran on; the test lines must be equal.
	if !bytes.Equal(withoutComments(fresh), withoutComments(checked)) {
		t.Errorf("%s differs from what gen_normtest.py makes of %s: run go generate", normalizationTest, source)
	}
}

func withoutComments(b []byte) []byte {
	var out []byte
	for line := range bytes.Lines(b) {
		if !bytes.HasPrefix(line, []byte("#")) {
			out = append(out, line...)
		}
	}
	return out
}
