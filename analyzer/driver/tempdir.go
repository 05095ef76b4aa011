package driver

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/idemcheck/idemcheck/internal/procgroup"
)

// A run's temporary directory holds go vet's overlay and, through
// GOTMPDIR, the go command's build directories. Its name carries the
// run's owner (".PID.START"), so that the next run removes the directory
// of a lint killed with SIGKILL, which had no chance to.
const tempPrefix = "idemcheck-lint"

// makeTempDir sweeps the directories of dead runs and makes this run's.
func makeTempDir() (string, error) {
	sweepTempDirs()
	return os.MkdirTemp("", tempPrefix+procgroup.OwnerSuffix()+"-")
}

// sweepTempDirs removes the temporary directories whose owner is gone.
// One without an owner (an older version's, or /proc unreadable) is left.
func sweepTempDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+".*-*"))
	for _, d := range dirs {
		rest := strings.TrimPrefix(filepath.Base(d), tempPrefix)
		i := strings.LastIndexByte(rest, '-')
		if i > 0 && procgroup.OwnerGone(rest[:i]) {
			os.RemoveAll(d)
		}
	}
}
