package attemptkey

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemcheck/idemcheck/analyzer/internal/directive"
	"github.com/idemcheck/idemcheck/analyzer/keymodel"
	"github.com/idemcheck/idemcheck/analyzer/keyname"
	"github.com/idemcheck/idemcheck/analyzer/reach"
)

// Analyzer reports idempotency keys built from per-attempt values (IDEM001).
var Analyzer = &analysis.Analyzer{
	Name:      Rule.ID,
	Doc:       Rule.Doc(),
	URL:       Rule.URL(),
	Run:       run,
	Requires:  []*analysis.Analyzer{keymodel.Analyzer, reach.Analyzer},
	FactTypes: []analysis.Fact{new(Summary), new(analyzed), new(generatedFindings), new(retriedKeys), new(heldKeys), new(fallbackKeys)},
}

// generatedFindings relays findings inside generated code to callers in
// other packages (see package directive).
type generatedFindings struct{ directive.GeneratedFindings }

// keyPattern is the -keypattern flag: a key-name pattern that replaces
// the model's.
var keyPattern keyPatternFlag

func init() {
	Analyzer.Flags.Var(&keyPattern, "keypattern",
		"regular expression over normalized names (lower case, letters and digits only) of idempotency keys; replaces the default")
	keymodel.RegisterFlag(&Analyzer.Flags)
	Analyzer.Flags.IntVar(&maxRounds, "maxrounds", maxRounds,
		"rounds of the fixed point over a package's functions before the analysis stops and says so")
}

type keyPatternFlag struct{ m *keyname.Matcher }

func (f *keyPatternFlag) String() string { return f.m.String() }

func (f *keyPatternFlag) Set(s string) error {
	if s == "" {
		f.m = nil // the model's pattern
		return nil
	}
	m, err := keyname.Compile(s)
	if err != nil {
		return err
	}
	f.m = m
	return nil
}

var statsEnabled = os.Getenv("IDEMCHECK_ATTEMPTKEY_STATS") != ""

const remedy = "derive it from the frozen intent, or persist it before acting and read it back"

func run(pass *analysis.Pass) (any, error) {
	if isStandard(pass) {
		return nil, nil
	}
	rep := heldReporter(pass, reach.Of(pass))
	pass.ExportPackageFact(&analyzed{})
	e := newEngine(pass, keymodel.Of(pass), keyPattern.m)
	e.reach = reach.Of(pass)
	e.build()
	e.solve()
	e.exportFacts()
	reportedAt := map[string]bool{}
	for _, d := range e.diagnostics() {
		rep.Report(d)
		reportedAt[e.lineOf(d.Pos)] = true
	}
	for _, d := range e.relayRetried() {
		rep.Report(d)
	}
	for _, d := range e.relayFallbacks(reportedAt) {
		rep.Report(d)
	}
	return nil, nil
}

// isStandard reports packages of the standard library, which are not
// analyzed: the default model covers them.
func isStandard(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return true
	}
	root := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return build.Default.GOROOT != "" && strings.HasPrefix(name, root)
}
