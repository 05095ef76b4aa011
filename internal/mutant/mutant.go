// Package mutant makes mutants of example handlers from marked regions of
// their source, for mutation testing of restart-test: each mutant removes
// one safeguard the articles name, and restart-test must fail it.
//
// A region is marked in a line comment of the file's language (//, # or --):
//
//	// mutant:provider-key
//	req.Header.Set("Idempotency-Key", key)
//	// mutant> // the key is not passed on
//	// mutant:end
//
// The mutant NAME drops the region's lines and puts in their place the
// lines marked "mutant>", uncommented (the rest of the line after the
// marker, at the marker's indentation). Regions of one name may be in
// several files of a handler (its code and its setup.sql) and in several
// places of one file; a new handler gets its mutants by marking its code.
package mutant

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

var (
	beginRe = regexp.MustCompile(`^\s*(//|#|--)\s*mutant:([a-z0-9-]+)\s*$`)
	addRe   = regexp.MustCompile(`^(\s*)(//|#|--)\s*mutant> ?(.*)$`)
)

// Names lists the mutants marked in the files, sorted.
func Names(files map[string][]byte) ([]string, error) {
	seen := map[string]bool{}
	for name, src := range files {
		regions, err := parse(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, r := range regions {
			seen[r.name] = true
		}
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}

// Apply returns the files with mutant name applied; files it does not
// touch are returned unchanged. Every marker line is dropped, so the
// original's own text (Apply with a name no region has) is the file
// without its markers.
func Apply(files map[string][]byte, name string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for file, src := range files {
		m, err := apply(src, name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		out[file] = m
	}
	return out, nil
}

type region struct {
	name       string
	begin, end int // line indexes of the markers
}

func lines(src []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func parse(src []byte) ([]region, error) {
	var out []region
	var open *region
	for i, l := range lines(src) {
		m := beginRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		switch {
		case m[2] == "end" && open == nil:
			return nil, fmt.Errorf("line %d: mutant:end without a region", i+1)
		case m[2] == "end":
			open.end = i
			out = append(out, *open)
			open = nil
		case open != nil:
			return nil, fmt.Errorf("line %d: mutant:%s inside mutant:%s (line %d)", i+1, m[2], open.name, open.begin+1)
		default:
			open = &region{name: m[2], begin: i}
		}
	}
	if open != nil {
		return nil, fmt.Errorf("line %d: mutant:%s is never ended", open.begin+1, open.name)
	}
	return out, nil
}

func apply(src []byte, name string) ([]byte, error) {
	regions, err := parse(src)
	if err != nil {
		return nil, err
	}
	ls := lines(src)
	var b strings.Builder
	for i := 0; i < len(ls); i++ {
		r := regionAt(regions, i)
		if r == nil {
			b.WriteString(ls[i] + "\n")
			continue
		}
		for j := r.begin + 1; j < r.end; j++ {
			add := addRe.FindStringSubmatch(ls[j])
			switch {
			case add != nil && r.name == name:
				b.WriteString(add[1] + add[3] + "\n")
			case add == nil && r.name != name:
				b.WriteString(ls[j] + "\n")
			}
		}
		i = r.end
	}
	return []byte(b.String()), nil
}

func regionAt(regions []region, i int) *region {
	for k := range regions {
		if regions[k].begin == i {
			return &regions[k]
		}
	}
	return nil
}
