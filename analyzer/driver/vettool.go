package driver

import "strings"

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
