package pystr

import (
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
)

//go:generate sh -c "python3 gen_nfc.py > nfc_tables.go && gofmt -w nfc_tables.go"
//go:generate python3 gen_normtest.py

// Hangul syllables decompose and compose by arithmetic (Unicode §3.12).
const (
	hangulSBase  = 0xAC00
	hangulLBase  = 0x1100
	hangulVBase  = 0x1161
	hangulTBase  = 0x11A7
	hangulLCount = 19
	hangulVCount = 21
	hangulTCount = 28
	hangulNCount = hangulVCount * hangulTCount
	hangulSCount = hangulLCount * hangulNCount
)

// nfcProps is what NFC needs to know of a rune, packed: its combining
// class in the low byte, and flags.
type nfcProps uint16

const (
	propDecomposes       nfcProps = 1 << 8  // has a canonical decomposition
	propComposesBackward nfcProps = 1 << 9  // second half of a composition (NFC_Quick_Check=Maybe)
	propNFCNever         nfcProps = 1 << 10 // never survives NFC (NFC_Quick_Check=No)
)

func (p nfcProps) class() uint8 { return uint8(p) }

// propsLimit bounds the runes with any NFC property; propsBlock sized
// blocks of the two-level table are shared when equal (most are all zero).
const (
	propsLimit = 0x30000
	propsShift = 8
	propsBlock = 1 << propsShift
)

var (
	propsIndex  [propsLimit >> propsShift]uint16
	propsBlocks [][propsBlock]nfcProps
	propsOnce   sync.Once
)

// buildProps fills the two-level table on first use rather than in init:
// every idemcheck process (go vet starts one per package to lint) would
// otherwise pay for it, and only derive needs it.
func buildProps() {
	props := map[rune]nfcProps{}
	for r, c := range cccTable {
		props[r] |= nfcProps(c)
	}
	composite := map[rune]bool{}
	for pair, c := range composeTable {
		props[rune(pair&(1<<21-1))] |= propComposesBackward
		composite[c] = true
	}
	for r := rune(hangulVBase); r < hangulVBase+hangulVCount; r++ {
		props[r] |= propComposesBackward
	}
	for r := rune(hangulTBase + 1); r < hangulTBase+hangulTCount; r++ {
		props[r] |= propComposesBackward
	}
	for r := range decompTable {
		props[r] |= propDecomposes
		if !composite[r] {
			props[r] |= propNFCNever
		}
	}
	propsBlocks = append(propsBlocks, [propsBlock]nfcProps{}) // block 0: no properties
	seen := map[[propsBlock]nfcProps]uint16{{}: 0}
	for b := range propsIndex {
		var blk [propsBlock]nfcProps
		for i := range blk {
			r := rune(b<<propsShift | i)
			if r < propsLimit {
				blk[i] = props[r]
			}
		}
		n, ok := seen[blk]
		if !ok {
			n = uint16(len(propsBlocks))
			propsBlocks = append(propsBlocks, blk)
			seen[blk] = n
		}
		propsIndex[b] = n
	}
}

func propsOf(r rune) nfcProps {
	if r >= propsLimit {
		return 0
	}
	propsOnce.Do(buildProps)
	return propsBlocks[propsIndex[r>>propsShift]][r&(propsBlock-1)]
}

func combiningClass(r rune) uint8 { return propsOf(r).class() }

// CombiningClass returns the canonical combining class of r in the tables'
// Unicode version (Python's unicodedata.combining).
func CombiningClass(r rune) uint8 { return combiningClass(r) }

// IsNFC reports whether NFC leaves s unchanged, the way CPython's quick
// check does: true only when no rune can change. It may answer false for
// text that is already NFC; AppendNFC then gives it back unchanged.
func IsNFC[T ~string | ~[]byte](s T) bool {
	var prev uint8
	for i := 0; i < len(s); {
		if s[i] < 0xcc { // below U+0300: ASCII, Latin-1, no marks
			prev = 0
			i++
			continue
		}
		r, n := decodeRune(s[i:])
		i += n
		p := propsOf(r)
		c := p.class()
		if c != 0 && prev > c || p&(propNFCNever|propComposesBackward) != 0 {
			return false
		}
		prev = c
	}
	return true
}

// AppendNFC appends unicodedata.normalize("NFC", s) of CPython to dst. Unlike
// golang.org/x/text/unicode/norm it never inserts U+034F into long runs of
// combining marks (the Stream-Safe Text Format), and its data is the
// Unicode version of the Python that generated the tables. s must be valid
// UTF-8. *scratch is working space, reused between calls.
//
// The text is processed one segment at a time: a segment ends before a
// starter that cannot compose with what precedes it, so reordering and
// composition never cross a boundary. A segment is held as runes, so the
// working space is 4 bytes per rune of the longest segment.
func AppendNFC[T ~string | ~[]byte](dst []byte, s T, scratch *[]rune) []byte {
	if IsNFC(s) {
		return append(dst, s...)
	}
	seg := (*scratch)[:0]
	var buf [4]rune
	for i := 0; i < len(s); {
		if len(seg) == 0 {
			// Size the segment's buffer once: a run of a hundred million
			// marks must not regrow it.
			if n := decomposedLen(s[i:], &buf); n > cap(seg) {
				seg = make([]rune, 0, n)
			}
		}
		r, n := decodeRune(s[i:])
		i += n
		for _, d := range decompose(r, &buf) {
			if len(seg) > 0 && propsOf(d)&(0xff|propComposesBackward) == 0 {
				dst = appendComposed(dst, seg)
				seg = seg[:0]
			}
			seg = append(seg, d)
		}
	}
	dst = appendComposed(dst, seg)
	*scratch = seg[:0]
	return dst
}

// decomposedLen counts the runes the decomposition of s has up to the next
// rune that surely starts a new segment (a starter that neither decomposes
// nor composes with what precedes it): an upper bound of the next segment.
func decomposedLen[T ~string | ~[]byte](s T, buf *[4]rune) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := decodeRune(s[i:])
		if i > 0 && propsOf(r)&(0xff|propComposesBackward|propDecomposes) == 0 {
			break
		}
		i += size
		n += len(decompose(r, buf))
	}
	return n
}

// decompose returns the full canonical decomposition of r (at most four
// runes), using buf as storage.
func decompose(r rune, buf *[4]rune) []rune {
	if hangulSBase <= r && r < hangulSBase+hangulSCount {
		s := r - hangulSBase
		buf[0], buf[1], buf[2] = hangulLBase+s/hangulNCount, hangulVBase+s%hangulNCount/hangulTCount, hangulTBase+s%hangulTCount
		if buf[2] == hangulTBase {
			return buf[:2]
		}
		return buf[:3]
	}
	if propsOf(r)&propDecomposes != 0 {
		if d, ok := decompTable[r]; ok {
			n := 0
			for _, c := range d {
				buf[n] = c
				n++
			}
			return buf[:n]
		}
	}
	buf[0] = r
	return buf[:1]
}

// appendComposed puts seg in canonical order, composes it (UAX #15) and
// appends it as UTF-8.
func appendComposed(dst []byte, seg []rune) []byte {
	if len(seg) == 0 {
		return dst
	}
	canonicalOrder(seg)
	starter := 0
	lastClass := combiningClass(seg[0])
	if lastClass != 0 {
		lastClass = 255 // no starter yet: nothing composes
	}
	w := 1
	for _, r := range seg[1:] {
		class := combiningClass(r)
		// Not blocked: nothing between the starter and r, or everything
		// between has a lower class than r. This is the only composition
		// path, Hangul's included (compose): a conjoining vowel or trailing
		// consonant is a starter (class 0), so any mark between blocks it,
		// as in CPython ("\u1100\u0301\u1161" stays as it is).
		if lastClass == 0 || lastClass < class {
			if c, ok := compose(seg[starter], r); ok {
				seg[starter] = c
				continue
			}
		}
		if class == 0 {
			starter = w
		}
		lastClass = class
		seg[w] = r
		w++
	}
	for _, r := range seg[:w] {
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// canonicalOrder sorts every run of non-starters by combining class,
// keeping equal classes in order.
func canonicalOrder(seg []rune) {
	for i := 0; i < len(seg); {
		if combiningClass(seg[i]) == 0 {
			i++
			continue
		}
		j := i + 1
		for j < len(seg) && combiningClass(seg[j]) != 0 {
			j++
		}
		byClass := func(a, b rune) int { return int(combiningClass(a)) - int(combiningClass(b)) }
		if j-i > 1 && !slices.IsSortedFunc(seg[i:j], byClass) {
			slices.SortStableFunc(seg[i:j], byClass)
		}
		i = j
	}
}

func compose(a, b rune) (rune, bool) {
	if hangulLBase <= a && a < hangulLBase+hangulLCount && hangulVBase <= b && b < hangulVBase+hangulVCount {
		return hangulSBase + ((a-hangulLBase)*hangulVCount+b-hangulVBase)*hangulTCount, true
	}
	if hangulSBase <= a && a < hangulSBase+hangulSCount && (a-hangulSBase)%hangulTCount == 0 &&
		hangulTBase < b && b < hangulTBase+hangulTCount {
		return a + b - hangulTBase, true
	}
	c, ok := composeTable[uint64(a)<<21|uint64(b)]
	return c, ok
}

// IsNewer reports whether r is assigned in the Unicode version of Go's
// unicode package but not in the version of the tables: Python releases
// after the one that generated them give such a rune other properties
// (combining class, case, alphanumeric), so text holding it has no single
// reference answer.
func IsNewer(r rune) bool {
	return r >= 0x0378 && !unicode.Is(assignedTable, r) &&
		unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

// FirstNewer returns the first rune of s that IsNewer, or -1.
func FirstNewer[T ~string | ~[]byte](s T) rune {
	for i := 0; i < len(s); {
		if s[i] < 0xcd { // below U+0340: all assigned since Unicode 1.1
			i++
			continue
		}
		r, n := decodeRune(s[i:])
		i += n
		if IsNewer(r) {
			return r
		}
	}
	return -1
}
