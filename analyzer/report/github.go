package report

import (
	"fmt"
	"io"
	"strings"
)

// WriteGitHub writes one GitHub Actions workflow command per finding:
//
//	::error file=pay.go,line=41,col=9,title=IDEM001::idempotency key built from …
//
// The path from source to sink follows the message on extra lines.
// Values are escaped as the Actions runner expects, so a message cannot
// end the annotation or inject another command. A package that was not
// analyzed gets an error annotation of its own, titled "not analyzed"; an
// analysis cut short, a notice; a directive mistake, a warning.
func WriteGitHub(w io.Writer, r Result) error {
	var b strings.Builder
	for _, e := range r.Errors {
		msg := e.Message
		if e.Package != "" {
			msg = e.Package + ": " + msg
		}
		fmt.Fprintf(&b, "::error title=%s::%s\n", escapeProperty("idemcheck: package not analyzed"), escapeData(msg))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "::notice file=%s,line=%d,col=%d,title=%s::%s\n",
			escapeProperty(n.File), n.Line, n.Column, escapeProperty(n.Rule+": analysis cut short"), escapeData(n.Message))
	}
	for _, n := range r.Warnings {
		fmt.Fprintf(&b, "::warning file=%s,line=%d,col=%d,title=%s::%s\n",
			escapeProperty(n.File), n.Line, n.Column, escapeProperty("idemcheck: directive"), escapeData(n.Message))
	}
	for _, f := range r.Findings {
		msg := f.Message
		for _, r := range f.Related {
			msg += fmt.Sprintf("\n  %s:%d:%d: %s", r.File, r.Line, r.Column, r.Message)
		}
		fmt.Fprintf(&b, "::error file=%s,line=%d,col=%d,title=%s::%s\n",
			escapeProperty(f.File), f.Line, f.Column, escapeProperty(f.Rule), escapeData(msg))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeData escapes a workflow command's message (after "::").
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command property value (file=, title=).
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
