package report

import (
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/idemcheck/idemcheck/analyzer/ruledoc"
)

// Tool describes the analyzer that produced a SARIF log.
type Tool struct {
	Name           string // "idemcheck"
	Version        string
	InformationURI string
}

// WriteSARIF writes findings as a SARIF 2.1.0 log: the rules (id, short and
// full description, help from the rule docs), one result per finding with
// its location, and, when a finding has a path, the steps as related
// locations and as a code flow ending at the finding.
func WriteSARIF(w io.Writer, fs []Finding, rules []ruledoc.Rule, tool Tool) error {
	run := sarif.NewRunWithInformationURI(tool.Name, tool.InformationURI)
	if tool.Version != "" {
		run.Tool.Driver.WithVersion(tool.Version)
	}
	for _, r := range rules {
		d := run.AddRule(r.ID).
			WithName(ruleName(r.Title)).
			WithShortDescription(sarif.NewMultiformatMessageString().WithText(r.Title)).
			WithFullDescription(sarif.NewMultiformatMessageString().WithText(oneParagraph(r.Why))).
			WithHelp(sarif.NewMultiformatMessageString().WithText(helpText(r)).WithMarkdown(r.Markdown())).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel("error"))
		if r.HelpURI != "" {
			d.WithHelpURI(r.HelpURI)
		}
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
	log := sarif.NewReport()
	log.AddRun(run)
	return log.PrettyWrite(w)
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
