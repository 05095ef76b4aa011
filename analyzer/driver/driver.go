// Package driver runs the idemcheck analyzers over packages by driving
// `go vet -vettool=<idemcheck> -json`. go vet brings the build cache (an
// unchanged package is not analyzed again), per-package parallelism and
// the go command's own package loading; idemcheck answers go vet through
// the unitchecker protocol (see VetToolMain) and this package turns vet's
// JSON into report.Findings.
//
// Two things make the verdict trustworthy: every package's diagnostics are
// computed and cached the same way whether it is a root or a dependency
// (see everyPackageFlag), and packages that do not load are listed by
// `go list -e` first and left out, so the others are still analyzed.
package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/idemcheck/idemcheck/analyzer/directives"
	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
	"github.com/idemcheck/idemcheck/analyzer/report"
	"github.com/idemcheck/idemcheck/internal/childenv"
	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// Options say what to analyze and how.
type Options struct {
	Dir           string   // working directory; "" means the current one
	Patterns      []string // package patterns; default ./...
	Tags          string   // build tags, comma-separated
	Tests         bool     // analyze and report _test.go files too
	AnalyzerFlags []string // passed to the vet tool, e.g. -IDEM001.keypattern=…
	Tool          string   // the vet tool; default os.Executable()
	Go            string   // the go command; default "go"
	Env           []string // extra environment, KEY=VALUE

	// Progress, when set, is called as the run moves through its phases,
	// and in PhaseAnalyze as packages finish: done of total non-standard
	// packages (dependencies included).
	Progress func(Progress)
}

// Phase is a stage of a run, as the progress line names it.
type Phase int

// The phases of a run, in order.
const (
	PhaseList    Phase = iota // go list: finding the packages and what they import
	PhaseBuild                // go vet compiles dependencies and analyzes the standard library; no package is reported yet
	PhaseAnalyze              // packages are being analyzed: Done of Total
)

// Progress says where a run is.
type Progress struct {
	Phase       Phase
	Done, Total int
}

// PackageError is a package that failed to load, parse or type-check.
type PackageError = report.PackageError

// Result is what a run found: the findings of every package that could be
// analyzed, and the errors of those that could not.
type Result struct {
	Findings []report.Finding
	Errors   []PackageError
	Notes    []report.Finding // analyses cut short (diagnostics of category "note")
	Warnings []report.Finding // directive mistakes (diagnostics of category "warning")
}

func (o Options) patterns() []string {
	if len(o.Patterns) == 0 {
		return []string{"./..."}
	}
	return o.Patterns
}

// env is the environment of the go command: the caller's variables that
// go and the tools it runs read (never the HMAC secret), then o.Env.
func (o Options) env() []string {
	return append(childenv.Environ(childenv.GoTool), o.Env...)
}

// vetEnv is the environment of go vet: o.env(), plus a garbage-collector
// setting for the vet tool's processes unless the user chose one.
//
// Why: go vet starts one idemcheck process per package, dependencies and
// the standard library included, and most live for a few milliseconds.
// With Go's default (GOGC=100) each collects while its packages
// initialize; GOGC=400 skips that and cut a cold lint's CPU time by a
// fifth. GOMEMLIMIT keeps the rare huge package from growing five-fold:
// past 2 GiB the collector runs as often as it needs to.
func (o Options) vetEnv() []string {
	env := o.env()
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOGC=") || strings.HasPrefix(kv, "GOMEMLIMIT=") {
			return env
		}
	}
	return append(env, "GOGC=400", "GOMEMLIMIT=2GiB")
}

// Run analyzes the packages that load and returns their findings, sorted
// and without duplicates, with file names relative to the working
// directory, plus one PackageError per package that does not load. The
// result does not depend on what earlier runs left in go's build cache.
// The error is for runs that could not analyze anything.
func Run(ctx context.Context, opts Options) (*Result, error) {
	tool := opts.Tool
	if tool == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("cannot find the idemcheck executable for go vet: %w", err)
		}
		tool = exe
	}
	goCmd := opts.Go
	if goCmd == "" {
		goCmd = "go"
	}
	dir := opts.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir, _ = filepath.Abs(dir)

	if opts.Progress != nil {
		opts.Progress(Progress{Phase: PhaseList})
	}

	tmp, err := makeTempDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	// go's build directories (go-build*) go into tmp: a go killed with
	// its group cannot remove its own, RemoveAll(tmp) does.
	opts.Env = append(slices.Clip(opts.Env), "GOTMPDIR="+tmp)

	p, err := list(ctx, opts, goCmd, dir)
	if err != nil {
		return nil, err
	}
	res := &Result{Errors: p.errors, Findings: []report.Finding{}}
	if len(p.roots) == 0 {
		if len(p.errors) == 0 {
			// go list only warns about a pattern matching nothing.
			return nil, &ErrNoPackages{Patterns: opts.patterns(), TestOnly: p.testOnly > 0}
		}
		return res, nil
	}

	args := []string{"vet", "-vettool=" + tool, "-json", "-" + everyPackageFlag}
	if opts.Tags != "" {
		args = append(args, "-tags="+opts.Tags)
	}
	if len(p.testDels) > 0 {
		overlay, err := hideFiles(tmp, p.testDels)
		if err != nil {
			return nil, err
		}
		args = append(args, "-overlay="+overlay)
	}
	args = append(args, opts.AnalyzerFlags...)
	args = append(args, "--")
	for _, r := range p.roots {
		args = append(args, r.ImportPath)
	}

	cmd := exec.Command(goCmd, args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.vetEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, pw := io.Pipe()
	cmd.Stdout = pw
	// go vet starts a vet tool per package and compilers: in a process
	// group, a cancelled run stops them all, not only go.
	g, err := procgroup.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("cannot run go vet: %w", err)
	}
	go func() { <-g.Done(); pw.Close() }()
	defer context.AfterFunc(ctx, g.Kill)()
	// Until go vet reports its first package, it is compiling the
	// dependencies and analyzing the standard library: on a cold cache
	// that is most of the run, and "0 of N" would look hung.
	var progress func(done, total int)
	if opts.Progress != nil {
		opts.Progress(Progress{Phase: PhaseBuild, Total: p.total})
		progress = func(done, _ int) {
			opts.Progress(Progress{Phase: PhaseAnalyze, Done: min(done, p.total), Total: p.total})
		}
	}
	findings, analysisErrors, seen, parseErr := parse(stdout, dir, p.rootSet, progress)
	if parseErr != nil {
		io.Copy(io.Discard, stdout)
	}
	runErr := g.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if parseErr != nil {
		return nil, parseErr
	}
	if runErr != nil {
		var exitErr *exec.ExitError
		if !errors.As(runErr, &exitErr) {
			return nil, fmt.Errorf("cannot run go vet: %w", runErr)
		}
		// With -json, diagnostics do not fail go vet: a failure is a
		// package that does not load, parse or type-check.
		res.Errors = append(res.Errors, vetErrors(stderr.String(), dir)...)
	}
	res.Errors = append(res.Errors, analysisErrors...)
	// go vet skips, silently, a package whose dependency failed; with
	// everyPackageFlag every analyzed package prints output, so a root
	// without any was not analyzed.
	failed := map[string]bool{}
	for _, e := range res.Errors {
		failed[e.Package] = true
	}
	for _, r := range p.roots {
		if !seen[r.ImportPath] && !failed[r.ImportPath] {
			msg := "not analyzed: go vet did not run on it"
			if len(res.Errors) > 0 {
				msg = "not analyzed: a package it imports failed (listed above)"
			}
			res.Errors = append(res.Errors, PackageError{Package: r.ImportPath, Message: msg})
		}
	}
	res.Errors = dedupErrors(res.Errors)

	kept := findings[:0]
	for _, f := range findings {
		inTestCode := strings.HasSuffix(f.File, "_test.go") || p.testSupport[filepath.Dir(absIn(dir, f.File))]
		if opts.Tests || !inTestCode {
			kept = append(kept, f)
		}
	}
	findings = kept
	var notes, warnings, held, live, claims []report.Finding
	kept = findings[:0]
	for _, f := range findings {
		if _, ok := strings.CutPrefix(f.Rule, heldPrefix); ok {
			held = append(held, f)
		} else if _, ok := strings.CutPrefix(f.Rule, livePrefix); ok {
			live = append(live, f)
		} else if _, ok := strings.CutPrefix(f.Rule, claimPrefix); ok {
			claims = append(claims, f)
		} else if analyzer, ok := strings.CutPrefix(f.Rule, notePrefix); ok {
			f.Rule = analyzer
			notes = append(notes, f)
		} else if analyzer, ok := strings.CutPrefix(f.Rule, warningPrefix); ok {
			f.Rule = analyzer
			warnings = append(warnings, f)
		} else {
			kept = append(kept, f)
		}
	}
	kept = append(kept, unclaimed(held, claims, p.application())...)
	kept = append(kept, called(live, claims, p.application())...)
	report.Sort(kept)
	res.Findings = report.Dedup(kept)
	report.Sort(notes)
	res.Notes = report.Dedup(notes)
	report.Sort(warnings)
	res.Warnings = report.Dedup(warnings)
	return res, nil
}

// hideFiles writes a go build overlay that deletes files, and returns its
// path. Without --tests, lint hides test files from go vet: a test file
// that imports a module go.mod lacks then cannot stop the package's own
// files from being analyzed, and there is less to analyze.
func hideFiles(dir string, files []string) (string, error) {
	overlay := struct{ Replace map[string]string }{Replace: map[string]string{}}
	for _, f := range files {
		overlay.Replace[f] = ""
	}
	data, err := json.Marshal(overlay)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, data, 0o644)
}

// vetErrors turns go vet's stderr into one PackageError per package block
// ("# pkg" then its messages); lines outside a block stand alone.
func vetErrors(stderr, dir string) []PackageError {
	var out []PackageError
	var cur *PackageError
	for _, line := range strings.Split(stderr, "\n") {
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "# "):
			out = append(out, PackageError{Package: strings.TrimSpace(line[2:])})
			cur = &out[len(out)-1]
		case cur != nil && !strings.HasPrefix(line, "go: "):
			msg := strings.TrimSpace(line)
			if cur.Message != "" {
				cur.Message += "\n"
			}
			cur.Message += relativize(msg, dir)
		default:
			cur = nil
			out = append(out, PackageError{Message: strings.TrimSpace(line)})
		}
	}
	kept := out[:0]
	for _, e := range out {
		if e.Message != "" {
			// "# pkg [pkg.test]" for a test variant, "# [pkg]" for a
			// command (package main) that go vet builds for vetting.
			name := strings.SplitN(e.Package, " [", 2)[0]
			if strings.HasPrefix(name, "[") && strings.HasSuffix(name, "]") {
				name = name[1 : len(name)-1]
			}
			e.Package = strings.TrimSuffix(name, "_test")
			kept = append(kept, e)
		}
	}
	return kept
}

// relativize shortens absolute file names under dir at the start of a
// compiler message ("/abs/dir/x.go:3:1: …").
func relativize(msg, dir string) string {
	if dir == "" || !strings.HasPrefix(msg, dir+string(filepath.Separator)) {
		return msg
	}
	return filepath.ToSlash(msg[len(dir)+1:])
}

func dedupErrors(es []PackageError) []PackageError {
	seen := map[string]bool{}
	out := es[:0]
	for _, e := range es {
		k := e.Package + "\x00" + e.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// rootOf returns the import path a go vet unit ID belongs to: the package
// itself for "p" and "p [p.test]", and p for its external test package
// "p_test [p.test]".
func rootOf(id string, roots map[string]bool) (string, bool) {
	base, variant, _ := strings.Cut(id, " [")
	if roots[base] {
		return base, true
	}
	if variant != "" {
		if p := strings.TrimSuffix(base, "_test"); p != base && roots[p] {
			return p, true
		}
	}
	return base, false
}

// vetDiagnostic is one entry of go vet's -json output (the JSONDiagnostic
// shape of golang.org/x/tools/go/analysis/internal/analysisflags).
type vetDiagnostic struct {
	Category string `json:"category"`
	Posn     string `json:"posn"`
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
}

// parse reads the stream of JSON objects go vet prints, one per analyzed
// unit: {"unit id": {"analyzer": [diagnostics] | {"error": "…"}}}. It keeps
// the diagnostics of roots (all units when roots is nil) and calls
// progress, if set, after each unit.
func parse(r io.Reader, dir string, roots map[string]bool, progress func(done, total int)) ([]report.Finding, []PackageError, map[string]bool, error) {
	dec := json.NewDecoder(r)
	var findings []report.Finding
	var analysisErrors []PackageError
	seen := map[string]bool{}
	done := 0
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, nil, fmt.Errorf("cannot read go vet output: %w", err)
		}
		done++
		if progress != nil {
			progress(done, 0)
		}
		for _, id := range slices.Sorted(maps.Keys(tree)) {
			pkg, isRoot := rootOf(id, roots)
			if _, ok := tree[id][unitMarkerName]; ok {
				seen[pkg] = true
			}
			for _, name := range slices.Sorted(maps.Keys(tree[id])) {
				raw := tree[id][name]
				var diags []vetDiagnostic
				if err := json.Unmarshal(raw, &diags); err != nil {
					var e struct {
						Error string `json:"error"`
					}
					if json.Unmarshal(raw, &e) == nil && e.Error != "" {
						analysisErrors = append(analysisErrors, PackageError{Package: pkg, Message: name + ": " + e.Error})
						continue
					}
					return nil, nil, nil, fmt.Errorf("cannot read go vet output for %s: %w", id, err)
				}
				if roots != nil && !isRoot || name == unitMarkerName {
					continue
				}
				for _, d := range diags {
					findings = append(findings, toFinding(d, name, dir))
				}
			}
		}
	}
	return findings, analysisErrors, seen, nil
}

// unclaimed returns the held findings (see emit's held.go) that the
// analyzed packages' claims do not settle. A finding no package claims
// has its callers out of view, and is one, unless every function it hangs
// on is called in its own package (calls that do not repeat it), or the
// patterns make an application (then nothing calls, refers to or hands on
// those functions: dead code). A claim by name from a package
// that sees the finding settles it (that package reports it where a call
// repeats it, or passes it on itself); claims through interfaces, and
// claims of functions the driver holds findings on, say what their call
// does: it settles the finding, repeats it (a finding, with the call as
// related information), or passes it on to the caller's exported
// functions, where it is held again.
func unclaimed(held, claims []report.Finding, application bool) []report.Finding {
	index := indexClaims(claims)
	work := make([]heldFinding, 0, len(held))
	for _, h := range held {
		work = append(work, parseHeld(h))
	}
	seen := map[string]bool{}
	var out []report.Finding
	for len(work) > 0 {
		h := work[0]
		work = work[1:]
		if seen[h.id()] {
			continue
		}
		seen[h.id()] = true
		matched := index.matching(h.holders)
		if len(matched) == 0 {
			// Unclaimed in an application: nothing calls the
			// functions it hangs on, refers to them, or hands their
			// type to a library's interface. Dead code, which nothing
			// runs again.
			if !h.calledInView() && !application {
				out = append(out, h.finding("which no analyzed package calls by name: its callers are out of view"))
			}
			continue
		}
		for _, c := range matched {
			switch c.mode {
			case emit.ClaimRepeats:
				f := h.finding("")
				f.Related = c.Related
				out = append(out, f)
			case emit.ClaimPasses:
				work = append(work, heldFinding{f: h.f, holders: parseHolders(c.Related)})
			}
		}
	}
	return out
}

// called returns the findings held until called (emit's HoldUntilCalled)
// that some analyzed package calls, by any call, or, outside an
// application, that nothing analyzed calls: their callers are out of view.
// In an application, one nothing calls, refers to or hands on is dead code.
func called(live, claims []report.Finding, application bool) []report.Finding {
	index := indexClaims(claims)
	var out []report.Finding
	for _, f := range live {
		f.Rule = strings.TrimPrefix(f.Rule, livePrefix)
		h := heldFinding{f: f, holders: parseHolders(f.Related)}
		var own []report.Related
		for _, r := range f.Related {
			if !strings.HasPrefix(r.Message, emit.HeldFor) {
				own = append(own, r)
			}
		}
		switch {
		case len(index.matching(h.holders)) > 0:
		case application:
			continue
		default:
			own = append(own, h.finding("which no analyzed package calls by name: its callers are out of view").Related...)
		}
		f.Related = own
		if f.Related == nil {
			f.Related = []report.Related{}
		}
		out = append(out, f)
	}
	return out
}

// heldFinding is a held finding and the functions it hangs on.
type heldFinding struct {
	f       report.Finding
	holders []holder
}

// holder is a function a held finding hangs on: its key, its short name,
// the related information naming it, its receiver's method set, and
// whether its own package calls it.
type holder struct {
	key, name, methods string
	inView             bool
	at                 report.Related
}

func parseHeld(h report.Finding) heldFinding {
	h.Rule = strings.TrimPrefix(h.Rule, heldPrefix)
	return heldFinding{f: h, holders: parseHolders(h.Related)}
}

func parseHolders(related []report.Related) []holder {
	var out []holder
	for _, r := range related {
		rest, ok := strings.CutPrefix(r.Message, emit.HeldFor)
		if !ok {
			continue
		}
		rest, inView := strings.CutSuffix(rest, emit.HeldInView)
		key, rest, _ := strings.Cut(rest, emit.HeldAs)
		name, methods, _ := strings.Cut(rest, emit.HeldMethods)
		out = append(out, holder{key: key, name: name, methods: methods, inView: inView, at: r})
	}
	return out
}

// calledInView reports whether every function h hangs on is called in
// its own package. No other analyzed package calls them, and the calls in
// view do not repeat h: it is settled. A function nothing calls may have
// callers outside the patterns, so h is a finding.
func (h heldFinding) calledInView() bool {
	for _, x := range h.holders {
		if !x.inView {
			return false
		}
	}
	return len(h.holders) > 0
}

func (h heldFinding) id() string {
	id := fmt.Sprintf("%s:%d:%d", h.f.File, h.f.Line, h.f.Column)
	for _, x := range h.holders {
		id += " " + x.key
	}
	return id
}

// finding is h as reported; unseen, when set, says why the functions it
// hangs on leave its callers out of view, each named as related
// information.
func (h heldFinding) finding(unseen string) report.Finding {
	f := h.f
	f.Related = []report.Related{}
	if unseen != "" {
		for _, x := range h.holders {
			r := x.at
			r.Message = "reached through " + x.name + ", " + unseen
			f.Related = append(f.Related, r)
		}
	}
	return f
}

// claim is one claim: a call of a function by name (key) or of an
// interface method (method, with the interface's method set), and what
// the call does (mode).
type claim struct {
	report.Finding
	mode, key, method string
	methods           []string
}

type claimIndex struct {
	byKey    map[string][]claim
	byMethod map[string][]claim
}

func indexClaims(claims []report.Finding) claimIndex {
	index := claimIndex{byKey: map[string][]claim{}, byMethod: map[string][]claim{}}
	for _, f := range claims {
		c := claim{Finding: f, mode: emit.ClaimSettles}
		if rest, ok := strings.CutPrefix(f.Message, emit.InterfaceClaim); ok {
			var methods string
			c.mode, rest, _ = strings.Cut(rest, " ")
			c.method, methods, _ = strings.Cut(rest, " ")
			c.methods = strings.Split(methods, ",")
			index.byMethod[c.method] = append(index.byMethod[c.method], c)
			continue
		}
		c.key = f.Message
		if rest, ok := strings.CutPrefix(f.Message, emit.FuncClaim); ok {
			c.mode, c.key, _ = strings.Cut(rest, " ")
		}
		index.byKey[c.key] = append(index.byKey[c.key], c)
	}
	return index
}

// matching returns the claims on any of holders: by name, or through an
// interface whose method is the holder and whose methods its receiver has.
func (index claimIndex) matching(holders []holder) []claim {
	var out []claim
	for _, h := range holders {
		out = append(out, index.byKey[h.key]...)
		if h.methods == "" {
			continue
		}
		has := strings.Split(h.methods, ",")
		for _, c := range index.byMethod[methodName(h.name)] {
			if subset(c.methods, has) {
				out = append(out, c)
			}
		}
	}
	return out
}

// methodName is M of a holder's short name T.M.
func methodName(short string) string {
	_, m, _ := strings.Cut(short, ".")
	return m
}

// subset reports whether every element of a is in b, which is sorted.
func subset(a, b []string) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

// noteCategory is the diagnostic category of a note about the analysis
// itself (it was cut short), which is not a finding; toFinding marks such a
// diagnostic's rule with notePrefix so that Run can set it apart.
//
// A warning (a mistake in a directive, category directives.Category) is
// not a finding either, and is set apart the same way with warningPrefix.
const (
	noteCategory  = "note"
	notePrefix    = "note:"
	warningPrefix = "warning:"
	heldPrefix    = "held:"
	livePrefix    = "held-live:"
	claimPrefix   = "claim:"
)

func toFinding(d vetDiagnostic, analyzer, dir string) report.Finding {
	rule := d.Category
	switch rule {
	case "":
		rule = analyzer
	case noteCategory:
		rule = notePrefix + analyzer
		d.Message = strings.TrimPrefix(d.Message, "note: ")
	case directives.Category:
		rule = warningPrefix + analyzer
	case emit.HeldCategory:
		rule = heldPrefix + analyzer
	case emit.LiveCategory:
		rule = livePrefix + analyzer
	case emit.ClaimCategory:
		rule = claimPrefix + analyzer
	}
	f := report.Finding{Rule: rule, Message: d.Message, Related: []report.Related{}}
	f.File, f.Line, f.Column = splitPosn(d.Posn, dir)
	for _, r := range d.Related {
		rel := report.Related{Message: r.Message}
		rel.File, rel.Line, rel.Column = splitPosn(r.Posn, dir)
		f.Related = append(f.Related, rel)
	}
	return f
}

// splitPosn parses "file:line:col" (the file may contain colons) and makes
// the file relative to dir when it lies inside it.
func splitPosn(posn, dir string) (string, int, int) {
	file, line, col := posn, 0, 0
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		if n, err := strconv.Atoi(file[i+1:]); err == nil {
			file, col = file[:i], n
			if j := strings.LastIndexByte(file, ':'); j >= 0 {
				if n, err := strconv.Atoi(file[j+1:]); err == nil {
					file, line = file[:j], n
				} else {
					line, col = col, 0
				}
			} else {
				line, col = col, 0
			}
		}
	}
	if dir != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.ToSlash(rel)
		}
	}
	return file, line, col
}

// absIn makes a finding's file, relative to dir when inside it, absolute.
func absIn(dir, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(dir, filepath.FromSlash(file))
}
