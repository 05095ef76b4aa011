package sdkkey

import (
	_ "embed"

	"github.com/idemcheck/idemcheck/analyzer/ruledoc"
)

//go:embed doc.go
var doc string

// Rule is IDEM002's documentation, written once as this package's comment in
// doc.go: it names the analyzer and gives its Doc, --explain, the SARIF help
// and docs/rules.md.
var Rule = ruledoc.MustParse(doc)
