#!/usr/bin/env bash
# Writes the offline bundle for a GPU machine that cannot download
# (scripts/device-check.sh): everything a build needs from outside the
# repository, in one file under the 64 MiB budget.
#
#   scripts/bundle.sh [OUT]     (default build/lmeval-bundle.tar.gz; make bundle)
#
# Contents:
#   lmeval/      the repository at HEAD (git archive; commit the work first)
#   goproxy/     a GOPROXY directory (the module cache's download/ layout) with
#                every module the build needs: the project's (go.mod) and
#                github.com/ollama/ollama, whose zip carries the pinned
#                llama.cpp and ggml sources (scripts/fetch-llama.sh checks its
#                h1: hash, offline too)
#   BUNDLE       what was bundled: commit, Go version, module list
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

# A private module cache, filled from the usual proxy (or the local cache):
# the build's modules only, not whatever else the machine's cache holds.
modcache="$stage/modcache"
export GOMODCACHE="$modcache" GOFLAGS=-mod=mod
(cd "$stage/lmeval" && go mod download -x 2>/dev/null || go mod download)
(cd "$stage/lmeval" && go list -deps -test ./... >/dev/null)
(cd "${TMPDIR:-/tmp}" && go mod download github.com/ollama/ollama@v0.17.4)
mkdir -p "$stage/goproxy"
cp -r "$modcache/cache/download/." "$stage/goproxy/"
# Checksum-database caches are not needed offline (GOSUMDB=off there; go.sum
# and fetch-llama.sh's pinned hash verify the modules).
rm -rf "$stage/goproxy/sumdb"
{
	echo "lmeval $(git rev-parse HEAD)"
	go version
	echo "modules:"
	(cd "$stage/goproxy" && find . -name '*.zip' | sed 's|^\./||; s|/@v/| |; s|\.zip$||' | sort)
} >"$stage/BUNDLE"
chmod -R u+w "$modcache"
rm -rf "$modcache"

mkdir -p "$(dirname "$out")"
tar -C "$stage" -czf "$out" lmeval goproxy BUNDLE
size=$(stat -c %s "$out" 2>/dev/null || stat -f %z "$out")
echo "bundle: $out: $((size >> 20)) MiB ($size bytes), $(grep -c . "$stage/BUNDLE") lines of contents in BUNDLE" >&2
if [ "$size" -gt "$budget" ]; then
	echo "bundle: $out is over the 64 MiB budget" >&2
	exit 1
fi
