package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/idemcheck/idemcheck/internal/input"
	"github.com/idemcheck/idemcheck/internal/redact"
)

// secretEnv is the environment variable holding the HMAC secret.
const secretEnv = "IDEMPOTENCY_HMAC_KEY"

// keyFileFlag is the flag naming a file that holds the secret.
const keyFileFlag = "hmac-key-file"

// runSecrets are the secrets this run must never print, known before any
// flag is parsed: the environment's, and the content of the key file the
// arguments name. A secret pasted into another flag's value, a path, a
// JSON member name or a handler command is then hidden wherever a message
// or a report would echo it, in every format.
func runSecrets(args []string, getenv func(string) string) *redact.Secrets {
	s := &redact.Secrets{}
	s.Add(getenv(secretEnv))
	for _, path := range keyFilesIn(args) {
		if data, err := readKeyFileQuietly(path); err == nil {
			s.Add(string(data))
		}
	}
	return s
}

// keyFilesIn returns the values of --hmac-key-file in args, up to "--".
func keyFilesIn(args []string) []string {
	var paths []string
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--"+keyFileFlag+"="); ok {
			paths = append(paths, v)
		} else if a == "--"+keyFileFlag && i+1 < len(args) {
			paths = append(paths, args[i+1])
		}
	}
	return paths
}

// readKeyFileQuietly reads a regular key file for redaction only: never a
// FIFO or device, which could block or never end before flags are checked.
func readKeyFileQuietly(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	data, err := input.ReadFile(path, input.DefaultLimit)
	if err != nil {
		return nil, err
	}
	return trimKeyNewline(data), nil
}

// trimKeyNewline removes one trailing newline, as editors and `echo` add:
// "\n" or "\r\n".
func trimKeyNewline(data []byte) []byte {
	if bytes.HasSuffix(data, []byte("\r\n")) {
		return data[:len(data)-2]
	}
	return bytes.TrimSuffix(data, []byte("\n"))
}

// readKeyFile reads the secret from --hmac-key-file. Errors say what is
// wrong with the file without naming it: a secret pasted as the flag's
// value would land in the log. A file that group or others can read gets a
// one-line warning on warn.
func readKeyFile(path string, limit int64, warn io.Writer) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, UsageErrorf("--%s: cannot read the file (%v); check the path you gave", keyFileFlag, pe.Err)
		}
		return nil, UsageErrorf("--%s: cannot read the secret file", keyFileFlag)
	}
	data, err := input.ReadFile(path, limit)
	var tooLarge *input.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, UsageErrorf("--%s: the file is larger than %s: it does not hold a secret; raise --max-input-size if it does", keyFileFlag, input.FormatSize(limit))
	case err != nil:
		return nil, UsageErrorf("--%s: cannot read the secret file; check the path you gave", keyFileFlag)
	}
	data = trimKeyNewline(data)
	if len(data) == 0 {
		return nil, UsageErrorf("--%s: the file is empty; put the secret in it", keyFileFlag)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, UsageErrorf("--%s: the file holds only whitespace; put the secret in it", keyFileFlag)
	}
	if perm := fi.Mode().Perm(); fi.Mode().IsRegular() && perm&0o077 != 0 {
		fmt.Fprintf(warn, "warning: --%s is readable by its group or others (mode %04o); restrict it with chmod 600\n", keyFileFlag, perm)
	}
	return data, nil
}

// envSecret reads the secret from the environment; a blank value (only
// whitespace) is refused: it is a variable set by mistake, not a secret.
func envSecret(getenv func(string) string) ([]byte, error) {
	secret := getenv(secretEnv)
	if secret == "" {
		return nil, UsageErrorf("no HMAC secret: set %s or pass --%s PATH", secretEnv, keyFileFlag)
	}
	if strings.TrimSpace(secret) == "" {
		return nil, UsageErrorf("%s is blank (only whitespace): set it to the secret, or pass --%s PATH", secretEnv, keyFileFlag)
	}
	return []byte(secret), nil
}
