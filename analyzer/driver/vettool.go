package driver

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// IsVetToolInvocation reports whether args (without the program name) are
// go vet speaking the unitchecker protocol to idemcheck as its -vettool:
// "-V=full", "-flags", or flags followed by one *.cfg file.
func IsVetToolInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if len(args) == 1 && (args[0] == "-V=full" || args[0] == "-flags" || args[0] == "--flags" || args[0] == "-V" || args[0] == "--V=full") {
		return true
	}
	last := args[len(args)-1]
	if !strings.HasSuffix(last, ".cfg") {
		return false
	}
	for _, a := range args[:len(args)-1] {
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// VersionLine answers go vet's "-V=full" question, which names the tool
// in the build cache's keys. unitchecker hashes the whole executable,
// which go vet asks on every run; this identifies the executable by path,
// size, modification time and embedded build information instead, which
// changes whenever the binary does, at a fraction of the cost.
func VersionLine() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00", exe, st.Size(), st.ModTime().UnixNano())
	if info, ok := debug.ReadBuildInfo(); ok {
		io.WriteString(h, info.String())
	}
	return fmt.Sprintf("%s version devel comments-go-here buildID=%x", exe, h.Sum(nil)), nil
}
