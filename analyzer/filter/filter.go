// Package filter narrows lint findings for adoption in an existing
// codebase, as golangci-lint and staticcheck users expect: only the lines
// changed since a git revision (NewFromRev), only findings not recorded
// in a baseline file (Baseline), and not in excluded paths (Exclude).
package filter

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/report"
	"github.com/idemcheck/idemcheck/internal/childenv"
)

// Keep returns the findings f accepts, in order.
func Keep(fs []report.Finding, f func(report.Finding) bool) []report.Finding {
	out := make([]report.Finding, 0, len(fs))
	for _, x := range fs {
		if f(x) {
			out = append(out, x)
		}
	}
	return out
}

// Exclude drops findings whose file matches excluded, which gets the path
// relative to base (slash-separated). Findings' files are relative to dir
// (or absolute).
func Exclude(fs []report.Finding, dir, base string, excluded func(rel string) bool) []report.Finding {
	return Keep(fs, func(f report.Finding) bool {
		rel, err := filepath.Rel(base, absFile(dir, f.File))
		if err != nil || strings.HasPrefix(rel, "..") {
			return true
		}
		return !excluded(filepath.ToSlash(rel))
	})
}

func absFile(dir, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(dir, file)
}

// ChangedLines are, per file (absolute path), the lines added or changed
// since a revision; a nil set means the whole file is new.
type ChangedLines map[string]map[int]bool

// Contains reports whether line of file (absolute) changed.
func (c ChangedLines) Contains(file string, line int) bool {
	lines, ok := c[file]
	return ok && (lines == nil || lines[line])
}

// ChangedSince asks git which lines in the work tree containing dir differ
// from rev: committed, staged and unstaged changes, and untracked files.
func ChangedSince(ctx context.Context, dir, rev string) (ChangedLines, error) {
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev needs a git work tree: %v", err)
	}
	root := strings.TrimSpace(string(top))
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--new-from-rev: %q is not a revision of this repository; try HEAD~1 or origin/main", rev)
	}
	diff, err := git(ctx, dir, "diff", "--no-color", "--no-ext-diff", "--no-renames", "-U0", rev, "--")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: git diff: %v", err)
	}
	changed := parseUnifiedDiff(diff, root)
	untracked, err := git(ctx, dir, "ls-files", "--others", "--exclude-standard", "--full-name", ":/")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimSpace(string(untracked)), "\n") {
		if f != "" {
			changed[filepath.Join(root, filepath.FromSlash(f))] = nil
		}
	}
	return changed, nil
}

// parseUnifiedDiff reads `git diff -U0`: the new side of every hunk of
// every "+++ b/path" file, as absolute paths under root.
func parseUnifiedDiff(diff []byte, root string) ChangedLines {
	out := ChangedLines{}
	var cur map[int]bool
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			name := strings.TrimPrefix(line, "+++ ")
			cur = nil
			if name == "/dev/null" {
				continue
			}
			name = strings.TrimPrefix(unquote(name), "b/")
			cur = map[int]bool{}
			out[filepath.Join(root, filepath.FromSlash(name))] = cur
		case strings.HasPrefix(line, "@@ ") && cur != nil:
			start, count := hunkNewRange(line)
			for l := start; l < start+count; l++ {
				cur[l] = true
			}
		}
	}
	return out
}

// hunkNewRange parses "@@ -a,b +c,d @@" into (c, d); d defaults to 1.
func hunkNewRange(line string) (int, int) {
	fields := strings.Fields(line)
	if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
		return 0, 0
	}
	startS, countS, hasCount := strings.Cut(fields[2][1:], ",")
	start, _ := strconv.Atoi(startS)
	count := 1
	if hasCount {
		count, _ = strconv.Atoi(countS)
	}
	return start, count
}

func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.quotepath=off"}, args...)...)
	cmd.Dir = dir
	cmd.Env = childenv.Environ(childenv.GoTool) // GIT_*, HOME, no secret
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("%s", strings.SplitN(msg, "\n", 2)[0])
		}
		return nil, err
	}
	return out, nil
}

// NewFromRev keeps the findings on lines changed since rev. Files are
// relative to dir.
func NewFromRev(ctx context.Context, fs []report.Finding, dir, rev string) ([]report.Finding, error) {
	changed, err := ChangedSince(ctx, dir, rev)
	if err != nil {
		return nil, err
	}
	return Keep(fs, func(f report.Finding) bool { return changed.Contains(absFile(dir, f.File), f.Line) }), nil
}
