package report

import "io"

// The formats for CI: SARIF for GitHub code scanning (and any SARIF
// viewer), and workflow-command annotations for GitHub Actions logs.
func init() {
	Register(Format{Name: "sarif", Usage: "SARIF 2.1.0 with the rule docs, for GitHub code scanning",
		Write: func(w io.Writer, r Result, env Env) error {
			return WriteSARIF(w, r, env.Rules, Tool{Name: "idemcheck", Version: env.Version, InformationURI: InformationURI})
		}})
	Register(Format{Name: "github", Usage: "GitHub Actions annotations (::error file=…,line=…,col=…,title=IDEMnnn::…)",
		Write: func(w io.Writer, r Result, _ Env) error { return WriteGitHub(w, r) }})
}

// InformationURI is where SARIF viewers link the tool.
const InformationURI = "https://github.com/idemcheck/idemcheck"
