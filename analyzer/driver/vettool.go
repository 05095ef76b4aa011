package driver

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/idemcheck/idemcheck/analyzer/internal/emit"
)

// IsVetToolInvocation reports whether args (without the program name) are
// go vet speaking the unitchecker protocol to idemcheck as its -vettool:
// "-V=full", "-flags", or flags followed by one *.cfg file.
func IsVetToolInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if len(args) == 1 && (args[0] == "-V=full" || args[0] == "-flags" || args[0] == "--flags" || args[0] == "-V" || args[0] == "--V=full") {
		return true
	}
	last := args[len(args)-1]
	if !strings.HasSuffix(last, ".cfg") {
		return false
	}
	for _, a := range args[:len(args)-1] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// everyPackageFlag is the vet tool flag `idemcheck lint` passes to go vet.
// With it, the tool reports diagnostics for every package it analyzes,
// including packages go vet analyzes only as dependencies ("VetxOnly").
//
// Why: go vet caches a package's result under a key that does not say
// whether the run was dependency-only. Without the flag, linting ./app
// (which analyzes ./lib as a dependency, with no diagnostics) caches an
// empty output for ./lib, and a later `lint ./lib` replays it: "no
// findings". With the flag, both kinds of run compute and cache the same
// output, and the driver keeps the diagnostics of the packages it was
// asked about. The flag is part of go vet's cache key, so plain
// `go vet -vettool` runs (without it) never share entries with lint.
const everyPackageFlag = "idemcheck.every-package"

// VetToolMain answers go vet (args are os.Args[1:]) and exits: "-V=full"
// with VersionLine, anything else through unitchecker with analyzers.
func VetToolMain(args []string, analyzers []*analysis.Analyzer) {
	if len(args) == 1 && args[0] == "-V=full" {
		if line, err := VersionLine(); err == nil {
			fmt.Println(line)
			os.Exit(0)
		}
	}
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") && exportStandardTypes(args[len(args)-1]) {
		os.Exit(0)
	}
	flag.Bool(everyPackageFlag, false, "report diagnostics of dependency-only packages too (set by idemcheck lint)")
	if !hasBoolFlag(args, everyPackageFlag) {
		// Plain go vet prints "file:line:col: message", without the
		// category that holds the rule ID.
		for _, a := range analyzers {
			prefixCategory(a)
		}
	}
	if hasBoolFlag(args, everyPackageFlag) {
		// lint's driver resolves held findings across packages.
		emit.SetHolding(true)
		analyzers = append(slices.Clip(analyzers), unitMarker)
		if cfg, err := reportEveryPackage(args[len(args)-1]); err == nil {
			os.Args[len(os.Args)-1] = cfg
		} else {
			fmt.Fprintf(os.Stderr, "idemcheck: %v\n", err)
			os.Exit(1)
		}
	}
	unitchecker.Main(analyzers...) // does not return
}

// prefixCategory makes a's diagnostics start with their category, the
// rule ID ("IDEM001: idempotency key built from …") or "warning", so that
// a line of plain go vet output says which rule to look up, ignore or
// disable. It changes a in place: VetToolMain's process analyzes one
// package and exits.
func prefixCategory(a *analysis.Analyzer) {
	run := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			if d.Category != "" && !strings.HasPrefix(d.Message, d.Category+": ") {
				d.Message = d.Category + ": " + d.Message
			}
			report(d)
		}
		return run(pass)
	}
}

// unitMarker reports one diagnostic per analyzed package, so that the
// driver can tell a package with no findings (go vet prints "{}" for it,
// without its name) from one go vet skipped because a dependency failed.
var unitMarker = &analysis.Analyzer{
	Name: unitMarkerName,
	Doc:  "marks a package as analyzed, for idemcheck lint",
	Run: func(pass *analysis.Pass) (any, error) {
		pass.Report(analysis.Diagnostic{Pos: pass.Files[0].Package, Message: "analyzed"})
		return nil, nil
	},
}

const unitMarkerName = "idemcheckunit"

// hasBoolFlag reports whether args set the boolean flag name to true.
func hasBoolFlag(args []string, name string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == name || a == name+"=true" || a == name+"=1" {
			return true
		}
	}
	return false
}

// reportEveryPackage rewrites go vet's unit config so that a package
// analyzed only for its facts is analyzed for diagnostics too, and returns
// the new config file. Standard-library packages (no module) stay
// fact-only: lint never reports them, and they are most of every build.
func reportEveryPackage(cfgFile string) (string, error) {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return "", err
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		return "", fmt.Errorf("cannot read go vet config %s: %v", cfgFile, err)
	}
	if cfg["VetxOnly"] != true || cfg["ModulePath"] == "" || cfg["ModulePath"] == nil {
		return cfgFile, nil
	}
	cfg["VetxOnly"] = false
	out, err := json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	newFile := filepath.Join(filepath.Dir(cfgFile), "idemcheck-vet.cfg")
	if err := os.WriteFile(newFile, out, 0o644); err != nil {
		return "", err
	}
	return newFile, nil
}

// VersionLine answers go vet's "-V=full" question, whose answer names the
// tool in the build cache's keys. It hashes the executable's contents, as
// unitchecker does: go vet asks once per run, and a key built from the
// path or modification time instead would change on every `go run .` and
// in every test binary, so no two such runs would share the cache.
func VersionLine() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s version devel comments-go-here buildID=%x", filepath.Base(exe), h.Sum(nil)), nil
}
