package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idemcheck/idemcheck/analyzer/suite"
	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// rulesGo triggers one companion rule per function.
const rulesGo = `package shop

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// ChargeParams is a provider request; its IdempotencyKey field is a key
// sink. (No net/http: every distinct configuration makes go vet revisit
// each standard package, and net/http brings 170 of them.)
type ChargeParams struct{ IdempotencyKey string }

type Order struct {
	ID    string
	Total float64
}

func FloatKey(o Order) ChargeParams {
	return ChargeParams{IdempotencyKey: fmt.Sprintf("%s:%.2f", o.ID, o.Total)}
}

func WholePayload(o Order) string {
	b, _ := json.Marshal(o)
	idemKey := string(b)
	return idemKey
}

func BareDigest(id string) ChargeParams {
	sum := sha256.Sum256([]byte(id))
	return ChargeParams{IdempotencyKey: hex.EncodeToString(sum[:])}
}

func AppUnique(ctx context.Context, db *sql.DB, key string) {
	db.ExecContext(ctx, "INSERT INTO pedidos_pix (key) VALUES ($1)", key)
}

func TenantScope(ctx context.Context, db *sql.DB, key string) {
	db.QueryRowContext(ctx, "SELECT status FROM idempotency_keys WHERE idempotency_key = $1", key)
}
`

func lintJSON(t *testing.T, opts *LintOptions) ([]string, error) {
	t.Helper()
	opts.Format = "json"
	out, errOut, err := runLint(t, opts)
	var doc struct{ Findings []struct{ Rule, File string } }
	if jerr := json.Unmarshal([]byte(out), &doc); jerr != nil {
		t.Fatalf("bad JSON (%v): %s\nstderr: %s", jerr, out, errOut)
	}
	var rules []string
	for _, f := range doc.Findings {
		rules = append(rules, f.Rule)
	}
	return rules, err
}

func TestLintCompanionRulesAndConfig(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dir := writeModule(t, map[string]string{"shop/shop.go": rulesGo})
	rules, err := lintJSON(t, &LintOptions{Dir: dir})
	if exitCode(err) != ExitFinding {
		t.Fatalf("exit %d: %v", exitCode(err), err)
	}
	if got := strings.Join(rules, ","); got != "IDEM003,IDEM004,IDEM005,IDEM007" {
		t.Errorf("without config: %s", got)
	}
	// The config file is found from the working directory upwards; its
	// content reaches the analyzers inside go vet, and changing it must
	// not be hidden by go vet's cache.
	cfg := "tables: ['(?i)pedidos_pix']\ndisable: [IDEM004, IDEM005]\n"
	if err := os.WriteFile(filepath.Join(dir, ".idemcheck.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	rules, _ = lintJSON(t, &LintOptions{Dir: filepath.Join(dir, "shop")})
	// With IDEM004 off, IDEM003 reports the float inside the whole Order.
	if got := strings.Join(rules, ","); got != "IDEM003,IDEM003,IDEM006,IDEM007" {
		t.Errorf("with config: %s", got)
	}
	cfg = "tenant_columns: [idempotency_key]\n" // silly, but observable
	other := filepath.Join(t.TempDir(), "other.yaml")
	if err := os.WriteFile(other, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	rules, _ = lintJSON(t, &LintOptions{Dir: dir, ConfigPath: other})
	if got := strings.Join(rules, ","); got != "IDEM003,IDEM004,IDEM005" {
		t.Errorf("with --config: %s", got)
	}
}

func TestLintConfigErrors(t *testing.T) {
	dir := writeModule(t, map[string]string{"ok/ok.go": "package ok\n"})
	if err := os.WriteFile(filepath.Join(dir, ".idemcheck.yaml"), []byte("tabels: [x]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runLint(t, &LintOptions{Dir: dir})
	if exitCode(err) != ExitUsage || !strings.Contains(err.Error(), ".idemcheck.yaml") || !strings.Contains(err.Error(), "tabels") {
		t.Errorf("unknown key: %v", err)
	}
	_, _, err = runLint(t, &LintOptions{Dir: dir, ConfigPath: filepath.Join(dir, "missing.yaml")})
	if exitCode(err) != ExitUsage || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing --config: %v", err)
	}
	// A rule ID no rule has is an error, with a suggestion only when one
	// rule is the closest.
	for disable, want := range map[string]string{
		"[IDEM009]": "disable: no rule IDEM009; the rules are IDEM001, ",
		"[idem050]": "disable: no rule IDEM050 (did you mean IDEM005?)",
	} {
		if err := os.WriteFile(filepath.Join(dir, ".idemcheck.yaml"), []byte("disable: "+disable+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err = runLint(t, &LintOptions{Dir: dir})
		if exitCode(err) != ExitUsage || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), ".idemcheck.yaml: invalid config: "+want) {
			t.Errorf("disable: %s: %v", disable, err)
		}
		if disable == "[IDEM009]" && strings.Contains(err.Error(), "did you mean") {
			t.Errorf("disable: %s: a guess among equally close rules: %v", disable, err)
		}
	}
}

func TestLintSARIFAndGitHubFormats(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dir := writeModule(t, map[string]string{"pay/pay.go": payGo})
	out, _, err := runLint(t, &LintOptions{Dir: dir, Format: "sarif"})
	if exitCode(err) != ExitFinding {
		t.Fatalf("exit %d: %v", exitCode(err), err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []struct {
				RuleID           string
				RelatedLocations []any
				CodeFlows        []any
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("bad SARIF: %v\n%s", err, out)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Tool.Driver.Rules) != len(suite.Rules()) {
		t.Fatalf("SARIF header: %+v", log)
	}
	res := log.Runs[0].Results
	if len(res) != 1 || res[0].RuleID != "IDEM001" || len(res[0].RelatedLocations) == 0 || len(res[0].CodeFlows) != 1 {
		t.Errorf("results: %+v", res)
	}
	out, _, err = runLint(t, &LintOptions{Dir: dir, Format: "github"})
	if exitCode(err) != ExitFinding || !strings.HasPrefix(out, "::error file=pay/pay.go,line=10,col=16,title=IDEM001::idempotency key built from time.Now") {
		t.Errorf("github format: %v\n%s", err, out)
	}
}

func TestExplainEveryRule(t *testing.T) {
	for _, r := range suite.Rules() {
		out, _, err := runLint(t, &LintOptions{Explain: strings.ToLower(r.ID)})
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		var plain bytes.Buffer
		if err := r.Write(&plain); err != nil {
			t.Fatal(err)
		}
		if out != plain.String() {
			t.Errorf("%s: plain explain differs from the rule doc:\n%s\n---\n%s", r.ID, out, plain.String())
		}
	}
	// On a terminal the same text is styled.
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	if err := lintRun(&LintOptions{IO: ios, Explain: "IDEM006"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\x1b[") || !strings.Contains(out.String(), "ON CONFLICT") {
		t.Errorf("styled explain: %q", out.String())
	}
}

func TestNewCmdLintConfigFlag(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *LintOptions
	c := NewCmdLint(ios, func(o *LintOptions) error { got = o; return nil })
	c.SetArgs([]string{"--config", "ci/idemcheck.yaml", "--format", "sarif", "--explain", "IDEM002"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.ConfigPath != "ci/idemcheck.yaml" || got.Format != "sarif" || got.Explain != "IDEM002" {
		t.Errorf("options = %+v", got)
	}
}
