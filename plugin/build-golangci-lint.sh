#!/usr/bin/env bash
# build-golangci-lint.sh builds a custom golangci-lint with the idemcheck
# module plugin (plugin/golangci), with `golangci-lint custom`, and prints
# the binary's path.
#
#   plugin/build-golangci-lint.sh [version]    # default v2.15.0
#
# Everything comes from the Go module proxy: golangci-lint itself (go
# install), and the source `custom` builds from. `custom` fetches that
# source with `git clone https://github.com/golangci/golangci-lint.git`; a
# `git` shim on PATH answers that one command with the same version from
# the module proxy, and passes every other git command to the real git.
#
# The binary is cached in $IDEMCHECK_CACHE (default ~/.cache/idemcheck),
# keyed by the golangci-lint version and a hash of idemcheck's sources, so
# a re-run with unchanged sources prints the cached path at once.
# Exit status 3 means the build is impossible here (no module proxy).
set -euo pipefail

version=${1:-v2.15.0}
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${IDEMCHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/idemcheck}
mkdir -p "$cache"

sources=$(cd "$root" && find . -path ./.git -prune -o -path '*/testdata' -prune -o \( -name '*.go' -o -name go.mod -o -name go.sum \) -print | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
binary="$cache/custom-gcl-$version-$sources"
if [ -x "$binary" ]; then
	echo "$binary"
	exit 0
fi

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"' EXIT

# golangci-lint itself, for its `custom` command.
if ! GOBIN="$work/bin" go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version" >"$work/install.log" 2>&1; then
	cat "$work/install.log" >&2
	echo "cannot install golangci-lint $version from the module proxy" >&2
	exit 3
fi
src=$(go mod download -json "github.com/golangci/golangci-lint/v2@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$src" ] || { echo "cannot download golangci-lint $version source" >&2; exit 3; }

# The git shim: `git clone … golangci-lint.git` copies the proxy source.
real_git=$(command -v git || true)
mkdir -p "$work/shim"
cat >"$work/shim/git" <<EOF
#!/usr/bin/env bash
if [ "\$1" = clone ] && [[ "\${*: -1}" == *golangci/golangci-lint.git ]]; then
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
cd "$work/build"
if ! PATH="$work/shim:$PATH" "$work/bin/golangci-lint" custom >"$work/custom.log" 2>&1; then
	cat "$work/custom.log" >&2
	exit 1
fi
mv "$work/out/custom-gcl" "$binary.tmp"
mv "$binary.tmp" "$binary"
echo "$binary"
