// Command idemcheck finds idempotency keys that do not hold, before they
// cause a double charge.
package main

import (
	"os"

	"github.com/idemcheck/idemcheck/analyzer/driver"
	"github.com/idemcheck/idemcheck/analyzer/suite"
	"github.com/idemcheck/idemcheck/cmd"
	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// version is set at release time with -ldflags "-X main.version=…".
var version = ""

func main() {
	// `go vet -vettool=$(command -v idemcheck)` (and `idemcheck lint`,
	// which drives go vet) call back with the unitchecker protocol.
	if driver.IsVetToolInvocation(os.Args[1:]) {
		driver.VetToolMain(os.Args[1:], suite.Analyzers()) // does not return
	}
	os.Exit(cmd.Execute(version, iostreams.System()))
}
