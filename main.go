// Command idemcheck finds idempotency keys that do not hold, before they
// cause a double charge.
package main

import (
	"os"

	"github.com/idemcheck/idemcheck/cmd"
	"github.com/idemcheck/idemcheck/internal/iostreams"
)

// version is set at release time with -ldflags "-X main.version=…".
var version = ""

func main() {
	os.Exit(cmd.Execute(version, iostreams.System()))
}
