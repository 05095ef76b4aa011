package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

const sample = `
sources:
  - package: github.com/acme/ids
    function: New.*
  - field: CorrelationID
sinks:
  - package: github.com/acme/pay
    function: Charge
barriers:
  - package: github.com/acme/store
    function: LoadIntent
key_name: opref
tables: ['(?i)pedidos_pix']
tenant_columns: [Loja_ID]
disable: [idem005]
`

func TestParse(t *testing.T) {
	c, err := Parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Sources[0].MatchFunc("github.com/acme/ids", "NewID") || c.Sources[0].MatchFunc("github.com/acme/other", "NewID") {
		t.Error("source function pattern")
	}
	if c.Sources[0].MatchFunc("github.com/acme/ids", "RenewID") {
		t.Error("function patterns must match the whole name")
	}
	wild := Pattern{Package: "github.com/acme/...", Function: "Load"}
	if err := wild.compile(); err != nil {
		t.Fatal(err)
	}
	if !wild.MatchFunc("github.com/acme/store/pg", "Load") || !wild.MatchFunc("github.com/acme", "Load") || wild.MatchFunc("github.com/acmecorp", "Load") {
		t.Error("trailing /... must match the package and its sub-packages only")
	}
	if !c.Sources[1].MatchField("any/pkg", "CorrelationID") {
		t.Error("field pattern without package matches any package")
	}
	if !c.Sinks[0].MatchFunc("github.com/acme/pay", "Charge") || !c.Barriers[0].MatchFunc("github.com/acme/store", "LoadIntent") {
		t.Error("sink/barrier")
	}
	if !c.MatchTable("PEDIDOS_PIX") || c.MatchTable("orders") {
		t.Error("tables")
	}
	if !c.IsTenantColumn("loja_id") {
		t.Error("tenant columns are case-insensitive")
	}
	if !c.Disabled("IDEM005") || c.Disabled("IDEM001") {
		t.Error("disable")
	}
	if !c.MatchKeyName("opRef") {
		t.Error("key name")
	}
}

func TestParseErrors(t *testing.T) {
	for name, tc := range map[string]struct{ yaml, want string }{
		"unknown key":       {"tabels: [x]\n", `unknown key "tabels" (did you mean "tables"?)`},
		"unknown nested":    {"sources:\n  - pkg: x\n    function: y\n", `line 2: unknown key "pkg"`},
		"bad regexp":        {"key_name: '('\n", "key_name"},
		"pattern no name":   {"sinks:\n  - package: x\n", "sinks[0]: needs a function or a field"},
		"bad rule id":       {"disable: [IDEM5]\n", "not a rule id"},
		"bad tenant column": {"tenant_columns: ['a b']\n", "not a column name"},
		"not yaml":          {"sources: [\n", "invalid config"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

func TestEmptyFile(t *testing.T) {
	c, err := Parse(nil)
	if err != nil || c == nil || c.Disabled("IDEM001") {
		t.Fatalf("empty config: %v %v", c, err)
	}
}

func TestFindWalksUp(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := Find(deep); err != nil || p != "" {
		// A config above the temp dir would make this flaky; only check
		// that nothing inside root is found.
		if strings.HasPrefix(p, root) {
			t.Fatalf("found %q before creating it", p)
		}
	}
	want := filepath.Join(root, "a", FileName)
	if err := os.WriteFile(want, []byte("disable: [IDEM004]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Find(deep)
	if err != nil || p != want {
		t.Fatalf("Find = %q, %v; want %q", p, err, want)
	}
	c, data, err := Load(p)
	if err != nil || !c.Disabled("IDEM004") || len(data) == 0 {
		t.Fatalf("Load: %v", err)
	}
}

func TestEncode(t *testing.T) {
	if Encode([]byte("a")) == Encode([]byte("b")) || Digest([]byte("a")) == Digest([]byte("b")) {
		t.Fatal("different content, same flag value")
	}
}

func TestExcludeGlobs(t *testing.T) {
	c, err := Parse([]byte("exclude: [gen, '**/*_mock.go', 'internal/*/legacy.go', 'cmd/[ab]*/x.go']\n"))
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		"gen/a/b.go": true, "gen": true, "x/gen/b.go": false, "generated/b.go": false,
		"pay_mock.go": true, "a/b/pay_mock.go": true, "a/pay.go": false,
		"internal/pay/legacy.go": true, "internal/pay/sub/legacy.go": false,
		"cmd/app/x.go": true, "cmd/cli/x.go": false,
	} {
		if got := c.Excluded(p); got != want {
			t.Errorf("Excluded(%q) = %v, want %v", p, got, want)
		}
	}
	if _, err := Parse([]byte("exclude: ['[']\n")); err == nil {
		t.Error("a malformed glob was accepted")
	}
}

func TestParseErrorsSpeakYAML(t *testing.T) {
	for in, want := range map[string]string{
		"disabel: [IDEM005]\n":       `line 1: unknown key "disabel" (did you mean "disable"?)`,
		"sources: [{pakage: x}]\n":   `line 1: unknown key "pakage" (did you mean "package"?)`,
		"sources: abc\n":             "line 1: text `abc` where a list of entries",
		"tenant_columns: {a: b}\n":   "a mapping where a list belongs",
		"disable: IDEM005\n":         "line 1: text `IDEM005` where a list belongs",
		"include_generated: maybe\n": "line 1: text `maybe` where true or false belongs",
		"sinks: [{fills: x}]\n":      "line 1: text `x` where a whole number belongs",
		"zzz: 1\n":                   `line 1: unknown key "zzz"; run 'idemcheck lint --explain config' for the keys`,
	} {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "config.") {
			t.Errorf("Parse(%q) = %v; want it to contain %q and no Go type", in, err, want)
		}
		if err != nil && !strings.HasSuffix(err.Error(), SeeReference) {
			t.Errorf("Parse(%q) = %v; want it to end in what to do", in, err)
		}
	}
}

// The reference that configuration errors point to (lint --explain config)
// describes every key the file may have, and no other.
func TestReferenceNamesEveryKey(t *testing.T) {
	keys := map[string]bool{}
	for _, typ := range []reflect.Type{reflect.TypeFor[Config](), reflect.TypeFor[Pattern]()} {
		for i := range typ.NumField() {
			if k, _, _ := strings.Cut(typ.Field(i).Tag.Get("yaml"), ","); k != "" {
				keys[k] = true
			}
		}
	}
	for k := range keys {
		if !regexp.MustCompile(`(?m)(^|[ ,])` + regexp.QuoteMeta(k) + `[:, ]`).MatchString(Reference) {
			t.Errorf("reference.txt does not describe the key %s", k)
		}
	}
	if _, err := Parse([]byte(strings.SplitN(Reference, "Example:\n", 2)[1])); err != nil {
		t.Errorf("the reference's example does not parse: %v", err)
	}
}
