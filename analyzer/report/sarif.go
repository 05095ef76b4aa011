package report

import (
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/idemcheck/idemcheck/analyzer/ruledoc"
)

// DirectiveRule is the SARIF rule of the warnings about directives.
const DirectiveRule = "directives"

// Tool describes the analyzer that produced a SARIF log.
type Tool struct {
	Name           string // "idemcheck"
	Version        string
	InformationURI string
}

// WriteSARIF writes findings as a SARIF 2.1.0 log: the rules (id, short and
// full description, help from the rule docs), one result per finding with
// its location, and, when a finding has a path, the steps as related
// locations and as a code flow ending at the finding. Packages that were
// not analyzed become error notifications of an invocation that did not
// succeed; analyses cut short, warning notifications. Directive mistakes
// are results of level "warning" of their own rule, DirectiveRule.
func WriteSARIF(w io.Writer, result Result, rules []ruledoc.Rule, tool Tool) error {
	fs := result.Findings
	run := sarif.NewRunWithInformationURI(tool.Name, tool.InformationURI)
	if tool.Version != "" {
		run.Tool.Driver.WithVersion(tool.Version)
	}
	for _, r := range rules {
		run.AddRule(r.ID).
			WithName(ruleName(r.Title)).
			WithShortDescription(sarif.NewMultiformatMessageString().WithText(r.Title)).
			WithFullDescription(sarif.NewMultiformatMessageString().WithText(oneParagraph(r.Why))).
			WithHelp(sarif.NewMultiformatMessageString().WithText(helpText(r)).WithMarkdown(r.Markdown())).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel("error")).
			WithHelpURI(r.URL())
	}
	for _, f := range fs {
		if run.GetRuleIndex(f.Rule) < 0 {
			run.AddRule(f.Rule).WithShortDescription(sarif.NewMultiformatMessageString().WithText(f.Rule))
		}
		res := run.CreateResultForRule(f.Rule).
			WithLevel("error").
			WithMessage(sarif.NewTextMessage(f.Message)).
			AddLocation(location(f.File, f.Line, f.Column, ""))
		if len(f.Related) > 0 {
			flow := sarif.NewThreadFlow()
			for i, r := range f.Related {
				res.AddRelatedLocation(location(r.File, r.Line, r.Column, r.Message).WithID(i + 1))
				flow.AddLocation(sarif.NewThreadFlowLocation().WithLocation(location(r.File, r.Line, r.Column, r.Message)))
			}
			flow.AddLocation(sarif.NewThreadFlowLocation().WithLocation(location(f.File, f.Line, f.Column, f.Message)))
			res.AddCodeFlow(sarif.NewCodeFlow().WithMessage(sarif.NewTextMessage(f.Message)).AddThreadFlow(flow))
		}
	}
	for _, n := range result.Warnings {
		if run.GetRuleIndex(DirectiveRule) < 0 {
			run.AddRule(DirectiveRule).
				WithShortDescription(sarif.NewMultiformatMessageString().WithText("mistake in an //idemcheck:ignore directive")).
				WithFullDescription(sarif.NewMultiformatMessageString().WithText("A directive that is malformed, names no known rule, gives no reason, or matches no finding suppresses nothing. Fix it or remove it.")).
				WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel("warning"))
		}
		run.CreateResultForRule(DirectiveRule).
			WithLevel("warning").
			WithMessage(sarif.NewTextMessage(n.Message)).
			AddLocation(location(n.File, n.Line, n.Column, ""))
	}
	if len(result.Errors)+len(result.Notes) > 0 {
		inv := sarif.NewInvocation().WithExecutionSuccessful(len(result.Errors) == 0)
		for _, e := range result.Errors {
			msg := e.Message
			if e.Package != "" {
				msg = e.Package + ": " + msg
			}
			inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel("error").WithMessage(sarif.NewTextMessage(msg)))
		}
		for _, n := range result.Notes {
			inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel("warning").
				WithMessage(sarif.NewTextMessage(n.Rule + ": " + n.Message)).
				WithLocations([]*sarif.Location{location(n.File, n.Line, n.Column, "")}))
		}
		run.AddInvocation(inv)
	}
	log := sarif.NewReport()
	log.AddRun(run)
	var raw bytes.Buffer
	if err := log.Write(&raw); err != nil {
		return err
	}
	return writeCompactSARIF(w, raw.Bytes())
}

// sarifUnsetByDefault are the SARIF properties whose schema default is -1,
// meaning "not set"; go-sarif writes them out anyway.
var sarifUnsetByDefault = map[string]bool{
	"id": true, "index": true, "executionOrder": true, "byteOffset": true, "charOffset": true, "rank": true,
}

// writeCompactSARIF drops what go-sarif writes but says nothing: empty
// arrays and objects, and -1 "not set" values. "results" is kept even when
// empty, because SARIF reads an empty list as "no findings" and an absent
// one as "not analyzed".
func writeCompactSARIF(w io.Writer, raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(compactSARIF(doc))
}

func compactSARIF(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			child = compactSARIF(child)
			if isEmptySARIF(child) && k != "results" || sarifUnsetByDefault[k] && child == json.Number("-1") {
				delete(v, k)
				continue
			}
			v[k] = child
		}
		return v
	case []any:
		for i := range v {
			v[i] = compactSARIF(v[i])
		}
		return v
	}
	return v
}

func isEmptySARIF(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

// location builds a SARIF location. Relative paths are relative to the
// source root (%SRCROOT%), which is how code scanning resolves them.
func location(file string, line, col int, msg string) *sarif.Location {
	art := sarif.NewArtifactLocation().WithURI(fileURI(file))
	if !filepath.IsAbs(file) {
		art.WithURIBaseID("%SRCROOT%")
	}
	region := sarif.NewRegion().WithStartLine(max(line, 1))
	if col > 0 {
		region.WithStartColumn(col)
	}
	loc := sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().WithArtifactLocation(art).WithRegion(region))
	if msg != "" {
		loc.WithMessage(sarif.NewTextMessage(msg))
	}
	return loc
}

func fileURI(file string) string {
	slash := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		return (&url.URL{Scheme: "file", Path: slash}).String()
	}
	return (&url.URL{Path: slash}).String()
}

// ruleName turns "float in an idempotency key" into "FloatInAnIdempotencyKey".
func ruleName(title string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(title, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func oneParagraph(s string) string { return strings.Join(strings.Fields(s), " ") }

func helpText(r ruledoc.Rule) string {
	var b strings.Builder
	_ = r.Write(&b)
	return b.String()
}
