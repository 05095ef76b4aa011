package restarttest

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// When an endpoint got more than one key in a round, the keys themselves
// often show what changed between them: the part where two keys differ is
// a redelivered flag, a count, a clock reading, or random. The explanation
// names what the requests show, and says only "drawn in the attempt" when
// they show nothing more.

const (
	drawnInAttempt = "key drawn in the attempt"
	flagInKey      = "the key follows the delivery's redelivered flag (%s, then %s): a redelivery changes it"
	countInKey     = "the key carries a number that grows with each delivery (%s, then %s): a delivery count, an attempt counter or an id drawn per delivery, which a redelivery changes"
	clockInKey     = "the key carries a clock reading (%s, then %s): a redelivery reads another"
	raceInKey      = "each concurrent delivery drew and stored its own key (the redeliveries kept theirs): nothing unique made the second read the first's — put a unique constraint on the intent, insert … on conflict do nothing, then read the row back"
)

// driftCause explains why an endpoint got keys (in the order they came)
// that differ.
func driftCause(keys []string, concurrentOnly bool) string {
	if concurrentOnly {
		return raceInKey
	}
	if len(keys) < 2 {
		return drawnInAttempt
	}
	a, b := keys[0], keys[1]
	start, endA, endB := differingSpan(a, b)
	if c, ok := clockSpan(a, b, start, endA, endB); ok {
		return c
	}
	// Seconds, milliseconds or nanoseconds since 1970 where the keys begin
	// to differ (pay-1764616800123-4242: the rest may differ too).
	if ta, tb := digitRun(a, start), digitRun(b, start); len(ta) >= 9 && len(tb) >= 9 {
		return fmt.Sprintf(clockInKey, ta, tb)
	}
	da, db := expand(a, start, endA, isDigit), expand(b, start, endB, isDigit)
	if da != "" && db != "" && len(da) <= 6 && len(db) <= 6 {
		na, errA := strconv.ParseUint(da, 10, 64)
		nb, errB := strconv.ParseUint(db, 10, 64)
		if errA == nil && errB == nil && nb > na {
			return fmt.Sprintf(countInKey, da, db)
		}
	}
	fa, fb := expand(a, start, endA, isLetter), expand(b, start, endB, isLetter)
	if strings.EqualFold(fa, "false") && strings.EqualFold(fb, "true") {
		return fmt.Sprintf(flagInKey, fa, fb)
	}
	return drawnInAttempt
}

// differingSpan returns where a and b stop sharing a prefix, and where, in
// each, their shared suffix begins.
func differingSpan(a, b string) (start, endA, endB int) {
	for start < len(a) && start < len(b) && a[start] == b[start] {
		start++
	}
	endA, endB = len(a), len(b)
	for endA > start && endB > start && a[endA-1] == b[endB-1] {
		endA--
		endB--
	}
	return start, endA, endB
}

// expand widens s[start:end] over the neighbouring bytes that in accepts,
// so that "…-1" and "…-2" of "12" and "13" compare whole numbers.
func expand(s string, start, end int, in func(byte) bool) string {
	for start > 0 && in(s[start-1]) {
		start--
	}
	for end < len(s) && in(s[end]) {
		end++
	}
	for i := start; i < end; i++ {
		if !in(s[i]) {
			return ""
		}
	}
	return s[start:end]
}

// digitRun is the run of digits in s that holds s[at], or "".
func digitRun(s string, at int) string {
	if at >= len(s) || !isDigit(s[at]) {
		return ""
	}
	return expand(s, at, at+1, isDigit)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// clockLayouts are the ways a key writes a date or time.
var clockLayouts = []string{
	time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05",
	"2006-01-02 15:04", "2006-01-02", "15:04:05", "15:04", "20060102150405", "200601021504", "20060102",
}

// clockSpan reports a difference inside a written date or time
// (2026-12-01T19:20, 19:20:03, 20261201): the longest span around the
// differing part of each key that parses as one.
func clockSpan(a, b string, start, endA, endB int) (string, bool) {
	ca, cb := writtenTime(a, start, endA), writtenTime(b, start, endB)
	if ca == "" || cb == "" {
		return "", false
	}
	return fmt.Sprintf(clockInKey, ca, cb), true
}

// writtenTime is the longest substring of s around s[start:end] that a
// clock layout parses, or "".
func writtenTime(s string, start, end int) string {
	const widest = 35 // RFC 3339 with nanoseconds and an offset
	best := ""
	for i := max(0, end-widest); i <= start; i++ {
		for j := min(len(s), i+widest); j >= end && j-i > len(best); j-- {
			for _, layout := range clockLayouts {
				if _, err := time.Parse(layout, s[i:j]); err == nil {
					best = s[i:j]
					break
				}
			}
		}
	}
	return best
}
