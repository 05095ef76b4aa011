#!/usr/bin/env bash
# build-golangci-lint.sh builds a custom golangci-lint with the idemcheck
# module plugin (plugin/golangci), with golangci-lint's own `custom`
# command, and prints the binary's path on standard output.
#
#   plugin/build-golangci-lint.sh [version]    # default v2.15.0
#
# Everything comes from the Go module proxy ($GOPROXY): golangci-lint itself
# (go install), and the source `custom` builds from. `custom` fetches that
# source with `git clone https://github.com/golangci/golangci-lint.git`; a
# `git` shim on PATH answers that one command with the same version from
# the module proxy, and passes every other git command to the real git.
# The rest is `custom`'s own work: it writes the plugin import file, adds
# `replace github.com/idemcheck/idemcheck => <this checkout>`, runs
# `go mod tidy` and `go build`.
#
# Binaries are cached in $IDEMCHECK_CACHE (default ~/.cache/idemcheck):
# golangci-lint by version, the custom binary by version, Go version and a
# hash of the files of the packages the plugin is built from (plus go.mod
# and go.sum), so a re-run with unchanged sources prints the cached path at
# once. (A change to this script alone does not invalidate the cache: remove
# $IDEMCHECK_CACHE/custom-gcl-* then.)
#
# Exit status: 0 built (or cached), 3 impossible here (the module proxy
# does not serve golangci-lint's source), 1 any other failure.
set -euo pipefail

version=${1:-v2.15.0}
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${IDEMCHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/idemcheck}
mkdir -p "$cache"
log() { echo "build-golangci-lint: $*" >&2; }

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"' EXIT

# golangci-lint's source, from the module proxy: the test of whether the
# build is possible here at all.
download=$(go mod download -json "github.com/golangci/golangci-lint/v2@$version" 2>&1) || true
src=$(echo "$download" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$src" ]; then
	echo "$download" >&2
	log "the module proxy ($(go env GOPROXY)) does not serve golangci-lint $version: cannot build here"
	exit 3
fi

# The key: every file of every idemcheck package the plugin imports.
cd "$root"
files=$(go list -deps -f '{{if and .Module (eq .Module.Path "github.com/idemcheck/idemcheck")}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}' ./plugin/golangci | LC_ALL=C sort -u)
key=$({ go env GOVERSION; echo "$files" "$root/go.mod" "$root/go.sum" | xargs sha256sum | sed "s|$root/||"; } | sha256sum | cut -c1-16)
binary="$cache/custom-gcl-$version-$key"
if [ -x "$binary" ]; then
	log "cached"
	echo "$binary"
	exit 0
fi

# golangci-lint itself, for its `custom` command.
gcl="$cache/golangci-lint-$version-$(go env GOVERSION)"
if [ ! -x "$gcl" ]; then
	log "go install golangci-lint $version"
	GOBIN="$work/bin" go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version"
	mv "$work/bin/golangci-lint" "$gcl"
fi

# The git shim: `git clone … golangci-lint.git` copies the proxy source.
real_git=$(command -v git || echo git)
mkdir -p "$work/shim"
cat >"$work/shim/git" <<EOF
#!/usr/bin/env bash
if [ "\$1" = clone ] && [[ "\${*: -1}" == */golangci/golangci-lint.git ]]; then
	cp -r "$src" golangci-lint && chmod -R u+w golangci-lint
	exit
fi
exec "$real_git" "\$@"
EOF
chmod +x "$work/shim/git"

mkdir -p "$work/build"
cat >"$work/build/.custom-gcl.yml" <<EOF
version: $version
name: custom-gcl
destination: $work/out
plugins:
  - module: github.com/idemcheck/idemcheck
    import: github.com/idemcheck/idemcheck/plugin/golangci
    path: $root
EOF
log "golangci-lint custom (minutes on a cold build cache)"
cd "$work/build"
if ! PATH="$work/shim:$PATH" "$gcl" custom -v >"$work/custom.log" 2>&1; then
	cat "$work/custom.log" >&2
	exit 1
fi
mv "$work/out/custom-gcl" "$binary.tmp.$$"
mv "$binary.tmp.$$" "$binary"
echo "$binary"
