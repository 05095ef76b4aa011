// Package childenv builds the environment of the processes idemcheck
// starts for itself (the embedded PostgreSQL server, go vet, git): an
// allow-list of the caller's variables, never the whole environment.
//
// Why an allow-list: the caller's environment holds the real HMAC secret
// (IDEMPOTENCY_HMAC_KEY) and other credentials. A child that inherits it
// exposes it to whoever can read the child's /proc/PID/environ — for the
// embedded server, any handler that asks the server to read that file.
package childenv

import (
	"os"
	"strings"
)

// Base are the variables every child keeps: where programs are, whose
// home, language, time zone and temporary directory.
var Base = Allow{
	Names:    []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR"},
	Prefixes: []string{"LC_"},
}

// GoTool is what the go command and the tools it runs (compilers, cgo's
// C compiler, git and the module proxy's HTTP client) read.
var GoTool = Allow{
	Names: []string{
		"CC", "CXX", "AR", "FC", "PKG_CONFIG", "PKG_CONFIG_PATH",
		"XDG_CACHE_HOME", "XDG_CONFIG_HOME",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
		"SSL_CERT_FILE", "SSL_CERT_DIR", "NETRC", "SSH_AUTH_SOCK",
		"NO_COLOR",
	},
	// IDEMCHECK_ reaches idemcheck itself when go vet runs it as its
	// vet tool.
	Prefixes: []string{"GO", "CGO_", "GIT_", "IDEMCHECK_"},
}

// Allow names variables by name or by prefix.
type Allow struct {
	Names    []string
	Prefixes []string
}

func (a Allow) allows(name string) bool {
	for _, n := range a.Names {
		if name == n {
			return true
		}
	}
	for _, p := range a.Prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Secrets are never passed on, whatever an allow-list says.
var Secrets = []string{"IDEMPOTENCY_HMAC_KEY"}

// Filter keeps the entries of environ (NAME=VALUE) that Base or one of
// allows names. Entries are kept in order; a later entry of the same name
// wins, as it does for exec.
func Filter(environ []string, allows ...Allow) []string {
	var env []string
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || isSecret(name) {
			continue
		}
		keep := Base.allows(name)
		for _, a := range allows {
			keep = keep || a.allows(name)
		}
		if keep {
			env = append(env, kv)
		}
	}
	return env
}

// Environ is Filter(os.Environ(), allows...).
func Environ(allows ...Allow) []string { return Filter(os.Environ(), allows...) }

func isSecret(name string) bool {
	if strings.HasPrefix(name, "GOOGLE_") { // credentials, not the go command's
		return true
	}
	for _, s := range Secrets {
		if name == s {
			return true
		}
	}
	return false
}
