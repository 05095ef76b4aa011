package filter

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/report"
)

// Baseline records the findings a team accepts for now, so lint reports
// only new ones. Entries are matched by fingerprint, which leaves out line
// and column numbers: code moving up or down keeps its entries.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one accepted finding; Rule, File and Message are for
// the reader, Fingerprint is what matches.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Message     string `json:"message"`
}

const baselineVersion = 1

// positions matches the line and column numbers messages quote
// ("at pay/pay.go:10", "pay.go:10:16").
var positions = regexp.MustCompile(`:\d+(:\d+)?\b`)

// Fingerprint identifies a finding independently of where its file's lines
// moved: the rule, the file, the message without positions, and the text
// of the flagged line without surrounding space. dir is the directory
// f.File is relative to (to read the line).
func Fingerprint(f report.Finding, dir string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", f.Rule, filepath.ToSlash(f.File), positions.ReplaceAllString(f.Message, ""), sourceLine(absFile(dir, f.File), f.Line))
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// sourceLine returns line n of file, trimmed, or "" when unreadable.
func sourceLine(file string, n int) string {
	data, err := os.ReadFile(file)
	if err != nil || n < 1 {
		return ""
	}
	lines := bytes.Split(data, []byte("\n"))
	if n > len(lines) {
		return ""
	}
	return strings.Join(strings.Fields(string(lines[n-1])), " ")
}

// NewBaseline records fs.
func NewBaseline(fs []report.Finding, dir string) *Baseline {
	b := &Baseline{Version: baselineVersion, Findings: []BaselineEntry{}}
	for _, f := range fs {
		b.Findings = append(b.Findings, BaselineEntry{Fingerprint: Fingerprint(f, dir), Rule: f.Rule, File: f.File, Message: f.Message})
	}
	return b
}

// WriteFile writes the baseline as indented JSON.
func (b *Baseline) WriteFile(path string) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadBaseline reads a baseline file written by WriteFile.
func ReadBaseline(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("baseline %s does not exist: create it with --baseline %s --write-baseline", path, path)
	} else if err != nil {
		return nil, err
	}
	return ParseBaseline(path, data)
}

// ParseBaseline reads the content of the baseline file at path.
func ParseBaseline(path string, data []byte) (*Baseline, error) {
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil || b.Version != baselineVersion {
		return nil, fmt.Errorf("%s is not an idemcheck baseline (version %d): write it again with --write-baseline", path, baselineVersion)
	}
	return &b, nil
}

// Filter drops the findings the baseline records. Each entry absorbs one
// finding, so a second copy of an accepted finding is still reported.
func (b *Baseline) Filter(fs []report.Finding, dir string) []report.Finding {
	left := map[string]int{}
	for _, e := range b.Findings {
		left[e.Fingerprint]++
	}
	return Keep(fs, func(f report.Finding) bool {
		fp := Fingerprint(f, dir)
		if left[fp] > 0 {
			left[fp]--
			return false
		}
		return true
	})
}
