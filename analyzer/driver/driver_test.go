package driver

import (
	"encoding/json"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestIsVetToolInvocation(t *testing.T) {
	yes := [][]string{{"-V=full"}, {"-flags"}, {"/tmp/b001/vet.cfg"}, {"-json", "-IDEM001.keypattern=x", "/tmp/vet.cfg"}}
	no := [][]string{nil, {"lint"}, {"lint", "./..."}, {"lint", "x.cfg"}, {"--version"}}
	for _, a := range yes {
		if !IsVetToolInvocation(a) {
			t.Errorf("IsVetToolInvocation(%q) = false", a)
		}
	}
	for _, a := range no {
		if IsVetToolInvocation(a) {
			t.Errorf("IsVetToolInvocation(%q) = true", a)
		}
	}
}

func TestParse(t *testing.T) {
	out := `{
	"example.com/m/pay": {
		"IDEM001": [
			{"category": "IDEM001", "posn": "/work/m/pay/pay.go:10:16", "end": "/work/m/pay/pay.go:10:16", "message": "idempotency key built from time.Now",
			 "related": [{"posn": "/work/m/pay/pay.go:10:74", "end": "", "message": "time.Now: clock reading"}]}
		]
	}
}
{
	"example.com/m/other": {
		"IDEM001": [
			{"posn": "/elsewhere/x.go:3:1", "end": "", "message": "m"}
		]
	}
}
`
	fs, _, _, err := parse(strings.NewReader(out), "/work/m", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 {
		t.Fatalf("got %d findings", len(fs))
	}
	f := fs[0]
	if f.Rule != "IDEM001" || f.File != "pay/pay.go" || f.Line != 10 || f.Column != 16 || len(f.Related) != 1 || f.Related[0].Column != 74 {
		t.Errorf("first finding = %+v", f)
	}
	if fs[1].File != "/elsewhere/x.go" || fs[1].Rule != "IDEM001" {
		t.Errorf("second finding = %+v", fs[1])
	}

	_, errs, _, err := parse(strings.NewReader(`{"p [p.test]": {"IDEM001": {"error": "boom"}}}`), "/", nil, nil)
	if err != nil || len(errs) != 1 || errs[0].Package != "p" || errs[0].Message != "IDEM001: boom" {
		t.Errorf("analysis error: got %+v, %v", errs, err)
	}

	// Only the roots' diagnostics are kept; progress counts every unit.
	calls := 0
	fs, _, _, err = parse(strings.NewReader(out), "/work/m", map[string]bool{"example.com/m/other": true}, func(done, _ int) { calls = done })
	if err != nil || len(fs) != 1 || fs[0].File != "/elsewhere/x.go" || calls != 2 {
		t.Errorf("roots filter: %+v, %v, progress %d", fs, err, calls)
	}
}

func TestRootOf(t *testing.T) {
	roots := map[string]bool{"m/lib": true}
	for id, want := range map[string]bool{
		"m/lib": true, "m/lib [m/lib.test]": true, "m/lib_test [m/lib.test]": true,
		"m/app": false, "m/lib_test": false, "m/app [m/app.test]": false,
	} {
		if _, got := rootOf(id, roots); got != want {
			t.Errorf("rootOf(%q) = %v", id, got)
		}
	}
}

func TestVetErrors(t *testing.T) {
	stderr := "# m/bad\nvet: /w/bad/bad.go:3:23: cannot use \"x\"\n# m/bad2 [m/bad2.test]\n/w/bad2/x.go:1:1: expected 'package'\ngo: something else\n# [m/cmd]\n/w/cmd/a.go:2:15: undefined: f\n"
	errs := vetErrors(stderr, "/w")
	if len(errs) != 4 || errs[0].Package != "m/bad" || errs[1].Package != "m/bad2" || errs[1].Message != "bad2/x.go:1:1: expected 'package'" || errs[2].Message != "go: something else" || errs[3].Package != "m/cmd" {
		t.Errorf("vetErrors = %+v", errs)
	}
}

func TestSplitPosn(t *testing.T) {
	cases := []struct {
		in        string
		file      string
		line, col int
	}{
		{"/w/a/b.go:3:4", "a/b.go", 3, 4},
		{"C:/w/a.go:3:4", "C:/w/a.go", 3, 4},
		{"/w/a.go:7", "a.go", 7, 0},
	}
	for _, c := range cases {
		f, l, col := splitPosn(c.in, "/w")
		if f != c.file || l != c.line || col != c.col {
			t.Errorf("splitPosn(%q) = %q %d %d", c.in, f, l, col)
		}
	}
}

func TestVersionLine(t *testing.T) {
	a, err := VersionLine()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := VersionLine()
	if a != b || !strings.Contains(a, " version devel comments-go-here buildID=") {
		t.Errorf("VersionLine() = %q, then %q", a, b)
	}
}

func TestCheckAnalyzerFlags(t *testing.T) {
	a := &analysis.Analyzer{Name: "IDEM001", Doc: "d", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	a.Flags.String("keypattern", "", "")
	a.Flags.Bool("strict", false, "")
	depth := a.Flags.Int("depth", 7, "")
	a.Flags.Func("hook", "", func(string) error { return nil })
	as := []*analysis.Analyzer{a}
	for _, ok := range [][]string{nil, {"-IDEM001.keypattern=x"}, {"--IDEM001.strict"}, {"-IDEM001=false"}, {"-IDEM001.depth=3"}, {"-IDEM001.hook=x"}} {
		if err := CheckAnalyzerFlags(as, ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for flags, want := range map[string]string{
		"-IDEM001.keypatern=x": "did you mean -IDEM001.keypattern?",
		"IDEM001.keypattern=x": "must start with -",
		"-IDEM001.keypattern":  "needs a value",
		"-zzzzzzzzzzzz":        "unknown analyzer flag -zzzzzzzzzzzz;",
		"-IDEM001.depth=deep":  "-IDEM001.depth=deep: parse error: fix the value",
	} {
		err := CheckAnalyzerFlags(as, []string{flags})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line with %q", flags, err, want)
		}
	}
	if *depth != 7 {
		t.Errorf("checking -IDEM001.depth=3 changed the flag's variable to %d", *depth)
	}
}

// TestStandardTypesRoundTrip writes the vetx file of a standard package the
// way exportStandardTypes does and reads it back as an importer would.
func TestStandardTypesRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(build.Default.GOROOT, "src", "unicode", "utf8", "utf8.go"))
	if err != nil || len(files) != 1 {
		t.Skipf("no GOROOT source for unicode/utf8: %v", err)
	}
	dir := t.TempDir()
	cfg := unitConfig{ImportPath: "unicode/utf8", GoFiles: files, VetxOnly: true, VetxOutput: filepath.Join(dir, "vet.out")}
	if !isStandardUnit(cfg) {
		t.Fatal("unicode/utf8 is not recognized as standard")
	}
	if isStandardUnit(unitConfig{ImportPath: "example.com/x", ModulePath: "example.com/x", GoFiles: files}) {
		t.Error("a unit with a module path is taken for standard")
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(dir, "vet.cfg")
	if err := os.WriteFile(cfgFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if !exportStandardTypes(cfgFile) {
		t.Fatal("exportStandardTypes declined unicode/utf8")
	}
	im := vetxImporter{
		cfg:     unitConfig{ImportMap: map[string]string{"unicode/utf8": "unicode/utf8"}, PackageVetx: map[string]string{"unicode/utf8": cfg.VetxOutput}},
		fset:    token.NewFileSet(),
		imports: map[string]*types.Package{},
	}
	pkg, err := im.Import("unicode/utf8")
	if err != nil {
		t.Fatal(err)
	}
	if fn, ok := pkg.Scope().Lookup("RuneLen").(*types.Func); !ok || fn.Signature().String() != "func(r rune) int" {
		t.Errorf("RuneLen = %v", pkg.Scope().Lookup("RuneLen"))
	}
}

// go vet's tool processes get a garbage-collector setting unless the user
// chose one: either variable set leaves both alone.
func TestVetEnvLeavesTheUsersGCSettings(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	has := func(env []string, kv string) bool { return slices.Contains(env, kv) }
	env := Options{}.vetEnv()
	if !has(env, "GOGC=400") || !has(env, "GOMEMLIMIT=2GiB") {
		t.Errorf("no GC setting of the user's: want GOGC=400 GOMEMLIMIT=2GiB, env ends %q", env[max(0, len(env)-3):])
	}
	for _, user := range []string{"GOGC=50", "GOMEMLIMIT=512MiB"} {
		env := Options{Env: []string{user}}.vetEnv()
		if has(env, "GOGC=400") || has(env, "GOMEMLIMIT=2GiB") || !has(env, user) {
			t.Errorf("user's %s: env ends %q", user, env[max(0, len(env)-3):])
		}
	}
}

// TestTestSupport: a package only tests import (an e2e helper package),
// and one only such a package imports, are test support; a package
// production code imports, and one nothing imports, are not.
func TestTestSupport(t *testing.T) {
	pkgs := []*listedPackage{
		{ImportPath: "m/app", Dir: "/m/app", Imports: []string{"m/store"}, TestImports: []string{"m/e2e"}},
		{ImportPath: "m/store", Dir: "/m/store"},
		{ImportPath: "m/e2e", Dir: "/m/e2e", Imports: []string{"m/e2e/fixtures", "m/store", "testing"}},
		{ImportPath: "m/e2e/fixtures", Dir: "/m/e2e/fixtures"},
		{ImportPath: "m/cmd/tool", Dir: "/m/cmd/tool", XTestImports: []string{"m/app"}},
	}
	got := testSupport(pkgs)
	for dir, want := range map[string]bool{"/m/e2e": true, "/m/e2e/fixtures": true, "/m/store": false, "/m/app": false, "/m/cmd/tool": false} {
		if got[dir] != want {
			t.Errorf("testSupport[%s] = %v, want %v", dir, got[dir], want)
		}
	}
}
