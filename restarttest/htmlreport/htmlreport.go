package htmlreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/idemcheck/idemcheck/restarttest"
)

//go:embed report.html.tmpl
var pageTemplate string

//go:embed report.css
var pageCSS string

var tmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"add":   func(a, b int) int { return a + b },
	"axisY": func(t timeline) int { return t.Top + len(t.Lanes)*laneHeight + 2 },
}).Parse(pageTemplate))

// page is what the template renders.
type page struct {
	CSS      template.CSS
	Verdict  string // pass, fail, incomplete or (the run's) interrupted
	Summary  string
	Handler  string
	Delivery string
	Schema   string
	Learned  string
	Notes    []string
	Rounds   []roundView
}

type roundView struct {
	ID       string
	Index    int
	Label    string
	Verdict  string // pass, fail or incomplete
	Note     string // the kill point was not reached
	Duration int64
	Timeline timeline
	Events   []event
	Checks   []checkView
	Failed   []checkView
	Notes    []string
}

// Write renders rep as one HTML document.
func Write(w io.Writer, rep *restarttest.Report) error {
	p := page{
		CSS:      template.CSS(pageCSS),
		Verdict:  rep.Verdict,
		Summary:  rep.Summary,
		Handler:  rep.Handler,
		Delivery: rep.DeliveryText(),
		Schema:   rep.Schema,
	}
	if rep.Kept {
		p.Schema += " (kept)"
	}
	if rep.SchemaCheck != "" && rep.SchemaCheck != restarttest.SchemaChecked {
		p.Notes = append(p.Notes, rep.SchemaCheck)
	}
	if rep.Seed != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("random kill points, --seed %d", *rep.Seed))
	}
	if l := rep.Learned; slices.ContainsFunc(rep.Rounds, func(r restarttest.Round) bool { return r.KillPoint == restarttest.KillNone }) {
		p.Learned = fmt.Sprintf("clean delivery: %s, %s", count(l.Writes, "committed write"), count(l.EffectRequests, "effect request"))
		if len(l.Endpoints) > 0 {
			p.Learned += " (" + strings.Join(l.Endpoints, ", ") + ")"
		}
	}
	for _, r := range rep.Rounds {
		p.Rounds = append(p.Rounds, newRoundView(r))
	}
	return tmpl.Execute(w, p)
}

func newRoundView(r restarttest.Round) roundView {
	var keys []string
	for _, q := range r.EffectRequests {
		if q.IdempotencyKey != "" && !slices.Contains(keys, q.IdempotencyKey) {
			keys = append(keys, q.IdempotencyKey)
		}
	}
	evs := events(r, restarttest.ShortKeys(keys))
	cs := checks(r, evs)
	kp, _ := restarttest.ParseKillPoint(r.KillPoint)
	v := roundView{
		ID:       fmt.Sprintf("round-%d", r.Index),
		Index:    r.Index,
		Label:    kp.Label(),
		Verdict:  restarttest.VerdictPass,
		Duration: r.DurationMS,
		Timeline: newTimeline(r, evs, cs),
		Events:   evs,
		Checks:   cs,
	}
	if why := r.Untested(); why != "" {
		v.Note = why
		v.Verdict = restarttest.VerdictIncomplete
	}
	if !r.Passed {
		v.Verdict = restarttest.VerdictFail
	}
	for _, c := range cs {
		if c.Class == "bad" {
			v.Failed = append(v.Failed, c)
		}
	}
	v.Notes = roundNotes(r)
	return v
}

// roundNotes are what the round did that has no moment on the timeline.
func roundNotes(r restarttest.Round) []string {
	var out []string
	out = append(out, r.SendNotes(nil)...)
	if r.RaceNotRun != "" {
		out = append(out, "race not run: "+r.RaceNotRun)
	}
	for _, e := range r.Effects {
		out = append(out, fmt.Sprintf("%s: %s, %d executed, keys: %d", e.Endpoint, count(e.Requests, "request"), e.Executed, len(e.Keys)))
	}
	if len(r.CommitsMS) == 0 && r.Writes > 0 {
		out = append(out, count(r.Writes, "committed write"))
	}
	for _, l := range r.LocalEffects {
		ref := "the reference"
		if l.Expected != nil {
			ref = fmt.Sprintf("the clean round counted %d", *l.Expected)
		}
		out = append(out, fmt.Sprintf("local effect %s counted %d (%s)", l.Query, l.Count, ref))
	}
	for _, p := range r.Probes {
		out = append(out, fmt.Sprintf("probe %s: HTTP %d, %s, %s meanwhile", p.Name, p.Status, count(len(p.EffectRequests), "effect request"), count(p.Writes, "write")))
	}
	if r.EscapedProcesses > 0 {
		out = append(out, count(r.EscapedProcesses, "process")+" left outside the handler's process group (setsid, daemon): killed")
	}
	return out
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
