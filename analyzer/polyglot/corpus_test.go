//go:build cgo

package polyglot_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/config"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/polyglot"
)

var (
	wantRE = regexp.MustCompile(`(?:#|//) want ((?:IDEM\d{3}\s*)+)`)
	caseRE = regexp.MustCompile(`(?:#|//) case: (\S+) (finding|silent)`)
)

// TestCorpus lints each language's labelled corpus: every line marked
// `want IDEMnnn` must get exactly those findings, and no other line any.
// Each source, transport, sink, barrier and rule family must appear as a
// finding and as a silent look-alike.
func TestCorpus(t *testing.T) {
	for _, lang := range []string{"python", "typescript"} {
		t.Run(lang, func(t *testing.T) {
			dir := filepath.Join("testdata", "corpus", lang)
			model := keymodel.Default()
			if _, err := os.Stat(filepath.Join(dir, config.FileName)); err == nil {
				cfg, _, err := config.Load(filepath.Join(dir, config.FileName))
				if err != nil {
					t.Fatal(err)
				}
				if model, err = keymodel.New(cfg); err != nil {
					t.Fatal(err)
				}
			}
			res, err := polyglot.Run(polyglot.Options{Dir: dir, Languages: []string{lang}, Model: model})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %v", res.Errors)
			}
			got := map[string]bool{}
			for _, f := range res.Findings {
				got[fmt.Sprintf("%s:%d %s", filepath.ToSlash(f.File), f.Line, f.Rule)] = true
			}
			want := map[string]bool{}
			cases := map[string]map[string]int{}
			err = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
				if err != nil || info.IsDir() {
					return err
				}
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(dir, path)
				for i, line := range strings.Split(string(data), "\n") {
					if m := wantRE.FindStringSubmatch(line); m != nil {
						for _, r := range strings.Fields(m[1]) {
							want[fmt.Sprintf("%s:%d %s", filepath.ToSlash(rel), i+1, r)] = true
						}
					}
					if m := caseRE.FindStringSubmatch(line); m != nil {
						if cases[m[1]] == nil {
							cases[m[1]] = map[string]int{}
						}
						cases[m[1]][m[2]]++
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for k := range want {
				if !got[k] {
					t.Errorf("missing finding %s", k)
				}
			}
			for k := range got {
				if !want[k] {
					t.Errorf("unexpected finding %s", k)
				}
			}
			families := map[string]map[string]bool{}
			for c, kinds := range cases {
				fam := c
				if families[fam] == nil {
					families[fam] = map[string]bool{}
				}
				for k := range kinds {
					families[fam][k] = true
				}
			}
			var names []string
			for fam, kinds := range families {
				names = append(names, fam)
				if strings.HasPrefix(fam, "pair/") {
					continue
				}
				if !kinds["finding"] || !kinds["silent"] {
					t.Errorf("family %s needs a finding and a silent look-alike, has %v", fam, kinds)
				}
			}
			sort.Strings(names)
			t.Logf("%s corpus: %d findings expected and found, %d cases, families: %s", lang, len(want), countCases(cases), strings.Join(names, " "))
		})
	}
}

func countCases(cases map[string]map[string]int) int {
	n := 0
	for _, kinds := range cases {
		for _, c := range kinds {
			n += c
		}
	}
	return n
}
