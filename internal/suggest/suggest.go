// Package suggest finds the name a user most likely meant, for "did you
// mean" hints on mistyped flags and configuration keys.
package suggest

import "strings"

// Closest returns the candidate nearest to name (case-insensitive edit
// distance, or a candidate that name is a prefix of), or "" when none is
// close enough to be a plausible typo.
func Closest(name string, candidates []string) string {
	best, _ := closest(name, candidates)
	return best
}

// Unique is Closest when no other candidate is as close, and "" otherwise:
// for names that differ by a character or two, such as rule IDs
// ("IDEM009" is one edit from each of IDEM001…IDEM007), where picking one
// of several equally close would be a guess.
func Unique(name string, candidates []string) string {
	best, ties := closest(name, candidates)
	if ties > 1 {
		return ""
	}
	return best
}

// closest returns the nearest candidate and how many are that near.
func closest(name string, candidates []string) (string, int) {
	best, bestDist, ties := "", 0, 0
	lname := strings.ToLower(name)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := distance(lname, lc)
		if len(lname) >= 3 && strings.HasPrefix(lc, lname) {
			d = 1
		}
		switch {
		case d > maxDistance(name):
		case best == "" || d < bestDist:
			best, bestDist, ties = c, d, 1
		case d == bestDist:
			ties++
		}
	}
	return best, ties
}

// maxDistance allows one edit in short names and two in longer ones.
func maxDistance(name string) int {
	if len(name) <= 4 {
		return 1
	}
	return 2
}

// distance is the Damerau-Levenshtein (optimal string alignment) distance,
// so that a swapped pair of letters ("fromat") counts as one edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
