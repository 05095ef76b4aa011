package cmd

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A keyless write in an exported function of one package is a finding or
// not by its callers in the others (IDEM002, issue 18): go vet sees one
// package at a time, so the write is held, the callers settle it, and the
// driver reports what no package calls.
var heldModule = map[string]string{
	"stripe/go.mod": "module github.com/stripe/stripe-go/v82\n\ngo 1.22\n",
	"stripe/stripe.go": `package stripe

type Params struct{ IdempotencyKey *string }

func (p *Params) SetIdempotencyKey(v string) { p.IdempotencyKey = &v }

type ChargeParams struct {
	Params ` + "`form:\"*\"`" + `
	Amount *int64
}

type Charge struct{ ID string }

func Int64(v int64) *int64 { return &v }
`,
	"stripe/charge/charge.go": `package charge

import stripe "github.com/stripe/stripe-go/v82"

func New(params *stripe.ChargeParams) (*stripe.Charge, error) { return nil, nil }
`,
	"svc/svc.go": `// Package svc charges; who calls it decides whether a charge can repeat.
package svc

import (
	"net/http"

	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"
)

// RouteOnly is called only from an HTTP route: silent.
func RouteOnly(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)})
	return err
}

// Retried is called from a loop that retries it: reported here.
func Retried(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)}) // line 19
	return err
}

// Uncalled has no caller in view: reported, as before.
func Uncalled(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)}) // line 25
	return err
}

// Passed is reached through mid.Forward, which a retry loop calls.
func Passed(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)}) // line 31
	return err
}

// Suppressed is retried too, but the directive keeps it silent.
func Suppressed(cents int64) error {
	//idemcheck:ignore IDEM002 the provider dedupes these by amount
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)})
	return err
}

// ViaWorkflow is reached from the route through Workflow only.
func ViaWorkflow(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)})
	return err
}

func Workflow(cents int64) error { return ViaWorkflow(cents) }

// InView is called by this package's own route, and by no other package:
// silent.
func InView(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)})
	return err
}

func pay(w http.ResponseWriter, r *http.Request) { _ = InView(100) }
`,
	"gw/gw.go": `// Package gw is a payment gateway its callers reach through interfaces.
package gw

import (
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"
)

type Stripe struct{}

// Charge is reached from a route through app.Gateway and app.Service: silent.
func (s *Stripe) Charge(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)})
	return err
}

// Refund is reached through app.Gateway from a loop that retries it.
func (s *Stripe) Refund(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)}) // line 19
	return err
}

// Payout is called through web.Payer, from a route only: silent.
func (s *Stripe) Payout(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)})
	return err
}
`,
	"app/app.go": `package app

type Gateway interface {
	Charge(cents int64) error
	Refund(cents int64) error
}

type Service struct{ G Gateway }

// Checkout passes Charge on to its own callers.
func (s *Service) Checkout(cents int64) error { return s.G.Charge(cents) }
`,
	"mid/mid.go": `package mid

import "example.com/m/svc"

func Forward(cents int64) error { return svc.Passed(cents) }
`,
	"web/web.go": `package web

import (
	"net/http"

	"example.com/m/app"
	"example.com/m/svc"
)

var Svc *app.Service

// Payer is this package's own view of a gateway.
type Payer interface{ Payout(cents int64) error }

var P Payer

func Pay(w http.ResponseWriter, r *http.Request) {
	_ = svc.RouteOnly(100)
	_ = svc.Workflow(100)
	_ = Svc.Checkout(100)
	_ = P.Payout(100)
}
`,
	"worker/worker.go": `package worker

import (
	"example.com/m/app"
	"example.com/m/mid"
	"example.com/m/svc"
)

var G app.Gateway

// Voider has a Charge too, but gw.Stripe has no Void: it is not this.
type Voider interface {
	Charge(cents int64) error
	Void()
}

var V Voider

func Run() {
	for {
		if G.Refund(100) == nil && V.Charge(100) == nil {
			break
		}
	}
	for i := 0; i < 3; i++ {
		if err := svc.Retried(100); err == nil {
			break
		}
	}
	for {
		if err := mid.Forward(100); err == nil {
			return
		}
		if err := svc.Suppressed(100); err == nil {
			return
		}
	}
}
`,
}

func writeHeldModule(t *testing.T) string {
	t.Helper()
	dir := writeModule(t, heldModule)
	mod := "module example.com/m\n\ngo 1.22\n\nrequire github.com/stripe/stripe-go/v82 v82.0.0\n\nreplace github.com/stripe/stripe-go/v82 => ./stripe\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLintHeldWritesAreSettledByTheirCallers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dir := writeHeldModule(t)
	out, errOut, err := runLint(t, &LintOptions{Dir: dir, Format: "json"})
	if exitCode(err) != ExitFinding {
		t.Fatalf("exit %d (%v)\n%s\n%s", exitCode(err), err, out, errOut)
	}
	var doc struct {
		Findings []struct {
			Rule, File string
			Line       int
			Related    []struct {
				File    string
				Line    int
				Message string
			}
		}
		Warnings []any
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON (%v): %s", err, out)
	}
	var got []string
	for _, f := range doc.Findings {
		var rel []string
		for _, r := range f.Related {
			rel = append(rel, filepath.ToSlash(r.File))
		}
		got = append(got, f.Rule+" "+filepath.ToSlash(f.File)+":"+strconv.Itoa(f.Line)+" <- "+strings.Join(rel, ","))
	}
	want := []string{
		"IDEM002 gw/gw.go:19 <- worker/worker.go",
		"IDEM002 svc/svc.go:19 <- worker/worker.go",
		"IDEM002 svc/svc.go:25 <- svc/svc.go",
		"IDEM002 svc/svc.go:31 <- worker/worker.go",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(doc.Warnings) > 0 {
		t.Errorf("warnings (the directive must count as used): %v", doc.Warnings)
	}
	if strings.Contains(out, "held") || strings.Contains(out, "claim") {
		t.Errorf("held or claim records leaked into the output:\n%s", out)
	}
}

// Plain go vet has no driver to settle held writes: every write its
// callers out of view may repeat is reported where it is, as before.
func TestVetToolReportsWritesOutOfView(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dir := writeHeldModule(t)
	cmd := exec.Command("go", "vet", "-vettool="+tool(t), "./...")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	n := strings.Count(string(out), "IDEM002: charge.New is called without an idempotency key")
	if n != 9 {
		t.Errorf("go vet reported %d keyless writes, want 9 (all but the suppressed one):\n%s", n, out)
	}
}

// In an application (the patterns hold a main package), an exported
// function that nothing calls, refers to or hands to a library is dead
// code, not code whose callers are out of view; one handed on as a value,
// or a method of a type handed to a library's interface, is not.
func TestLintDeadCodeInAnApplication(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	files := map[string]string{}
	for name, src := range heldModule {
		if strings.HasPrefix(name, "stripe/") {
			files[name] = src
		}
	}
	files["billing/billing.go"] = `package billing

import (
	"github.com/robfig/cron/v3"
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"
)

// Unused is named nowhere else: silent.
func Unused(cents int64) error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(cents)})
	return err
}

// Scheduled is handed to a scheduler as a value: reported.
func Scheduled() error {
	_, err := charge.New(&stripe.ChargeParams{Amount: stripe.Int64(100)}) // line 17
	return err
}

type Job struct{}

// Run is called by a cron library, which main hands the Job to: reported.
func (j *Job) Run() {
	_, _ = charge.New(&stripe.ChargeParams{Amount: stripe.Int64(100)}) // line 25
}

type Hourly struct{}

// Run is called by a cron library, through the interface NewHourly
// returns: reported.
func (h *Hourly) Run() {
	_, _ = charge.New(&stripe.ChargeParams{Amount: stripe.Int64(100)}) // line 33
}

func NewHourly() cron.Job { return &Hourly{} }
`
	files["cron/go.mod"] = "module github.com/robfig/cron/v3\n\ngo 1.22\n"
	files["cron/cron.go"] = `package cron

type Job interface{ Run() }

func AddJob(spec string, j Job) {}
`
	files["main.go"] = `package main

import (
	"github.com/robfig/cron/v3"

	"example.com/m/billing"
)

func every(job func() error) { go func() { _ = job() }() }

func main() {
	every(billing.Scheduled)
	cron.AddJob("@daily", &billing.Job{})
	cron.AddJob("@hourly", billing.NewHourly())
}
`
	dir := writeModule(t, files)
	mod := "module example.com/m\n\ngo 1.22\n\nrequire (\n\tgithub.com/stripe/stripe-go/v82 v82.0.0\n\tgithub.com/robfig/cron/v3 v3.0.0\n)\n\nreplace github.com/stripe/stripe-go/v82 => ./stripe\n\nreplace github.com/robfig/cron/v3 => ./cron\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runLint(t, &LintOptions{Dir: dir, Format: "json"})
	if exitCode(err) != ExitFinding {
		t.Fatalf("exit %d (%v)\n%s\n%s", exitCode(err), err, out, errOut)
	}
	var doc struct {
		Findings []struct {
			File string
			Line int
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bad JSON (%v): %s", err, out)
	}
	var got []string
	for _, f := range doc.Findings {
		got = append(got, filepath.ToSlash(f.File)+":"+strconv.Itoa(f.Line))
	}
	if want := []string{"billing/billing.go:17", "billing/billing.go:25", "billing/billing.go:33"}; !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v:\n%s", got, want, out)
	}
}
