package childenv

import (
	"slices"
	"testing"
)

func TestFilter(t *testing.T) {
	environ := []string{
		"PATH=/bin", "HOME=/root", "LC_ALL=C", "TMPDIR=/tmp/x", "TZ=UTC",
		"IDEMPOTENCY_HMAC_KEY=s3cret", "AWS_SECRET_ACCESS_KEY=k", "DATABASE_URL=postgres://u:p@h/db", "PGPASSWORD=p",
		"GOFLAGS=-mod=mod", "GOOGLE_APPLICATION_CREDENTIALS=/k.json", "CGO_ENABLED=0", "IDEMCHECK_ATTEMPTKEY_STATS=1", "noequals",
	}
	base := []string{"PATH=/bin", "HOME=/root", "LC_ALL=C", "TMPDIR=/tmp/x", "TZ=UTC"}
	if got := Filter(environ); !slices.Equal(got, base) {
		t.Errorf("Filter() = %q, want %q", got, base)
	}
	want := append(base, "GOFLAGS=-mod=mod", "CGO_ENABLED=0", "IDEMCHECK_ATTEMPTKEY_STATS=1")
	if got := Filter(environ, GoTool); !slices.Equal(got, want) {
		t.Errorf("Filter(GoTool) = %q, want %q", got, want)
	}
	// No allow-list lets the secret through.
	if got := Filter(environ, Allow{Names: []string{"IDEMPOTENCY_HMAC_KEY"}}); slices.Contains(got, "IDEMPOTENCY_HMAC_KEY=s3cret") {
		t.Errorf("the secret passed: %q", got)
	}
}
