#!/usr/bin/env bash
# Writes the offline bundle for a GPU machine that cannot download
# (scripts/device-check.sh): everything a build needs from outside the
# repository, in one file under the 64 MiB budget.
#
#   scripts/bundle.sh [OUT]     (default build/lmeval-bundle.tar.gz; make bundle)
#
# Contents:
#   lmeval/          the repository at HEAD (git archive; commit the work first),
#                    with vendor/ (go mod vendor: the packages of the project's
#                    modules the build and its tests import, so Go builds with
#                    -mod=vendor, offline)
#   goproxy/         a GOPROXY directory (the module cache's download/ layout)
#                    holding github.com/ollama/ollama@v0.17.4, whose zip carries
#                    the pinned llama.cpp and ggml sources; scripts/fetch-llama.sh
#                    fetches it from there and checks its pinned h1: hash
#   BUNDLE           what was bundled: commit, Go version, modules
#
# On the target: tar xzf lmeval-bundle.tar.gz && lmeval/scripts/device-check.sh --bundle .
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/lmeval-bundle.tar.gz}
budget=$((64 << 20))

stage=$(mktemp -d "${TMPDIR:-/tmp}/lmeval-bundle.XXXXXX")
trap 'chmod -R u+w "$stage" 2>/dev/null; rm -rf "$stage"' EXIT
mkdir -p "$stage/lmeval"
git archive --format=tar HEAD | tar -x -C "$stage/lmeval"
if ! git diff --quiet HEAD 2>/dev/null; then
	echo "bundle: warning: the working tree has uncommitted changes; the bundle has HEAD ($(git rev-parse --short HEAD))" >&2
fi

# The project's dependencies, vendored (only the packages imported).
(cd "$stage/lmeval" && GOFLAGS=-mod=mod go mod vendor)
# The llama.cpp module from a private module cache, so that only it is
# copied, not whatever else the machine's cache holds.
modcache="$stage/modcache"
(cd "${TMPDIR:-/tmp}" && GOMODCACHE="$modcache" GOFLAGS=-mod=mod go mod download github.com/ollama/ollama@v0.17.4)
mkdir -p "$stage/goproxy"
cp -r "$modcache/cache/download/." "$stage/goproxy/"
# Checksum-database caches are not needed offline (GOSUMDB=off there; go.sum,
# vendor/modules.txt and fetch-llama.sh's pinned hash verify the modules).
rm -rf "$stage/goproxy/sumdb"
chmod -R u+w "$modcache"
rm -rf "$modcache"
{
	echo "lmeval $(git rev-parse HEAD)"
	go version
	echo "goproxy: github.com/ollama/ollama v0.17.4 (llama.cpp ec98e2002, ggml)"
	echo "vendored modules:"
	grep '^# ' "$stage/lmeval/vendor/modules.txt" | sed 's/^# /  /'
} >"$stage/BUNDLE"

mkdir -p "$(dirname "$out")"
tar -C "$stage" -czf "$out" lmeval goproxy BUNDLE
size=$(stat -c %s "$out" 2>/dev/null || stat -f %z "$out")
echo "bundle: $out: $((size >> 20)) MiB ($size bytes); contents in its BUNDLE file" >&2
if [ "$size" -gt "$budget" ]; then
	echo "bundle: $out is over the 64 MiB budget" >&2
	exit 1
fi
