#!/usr/bin/env bash
# Fetches the pinned llama.cpp + ggml sources and prints where they are.
#
# The sources come from the Go module github.com/ollama/ollama@v0.17.4, which
# vendors llama.cpp commit ec98e2002 (llama/llama.cpp) and ggml
# (ml/backend/ggml/ggml). `go mod download` verifies the module zip against
# the Go checksum database; we additionally pin its h1: hash here, so a
# different tree is never built silently.
#
# Output (stdout), one per line, for the Makefile / CMake:
#   LLAMA_SRC=<dir with include/ src/>
#   GGML_SRC=<dir with include/ src/ cmake/>
set -euo pipefail

MODULE=github.com/ollama/ollama
VERSION=v0.17.4
WANT_SUM='h1:X3KNm9x4BlHqk/AXMGtC7pBAFd46nmJmy8yDaBZLo9s='

# Outside any module so go.mod/go.sum of the project are never touched.
json=$(cd "${TMPDIR:-/tmp}" && GOFLAGS=-mod=mod go mod download -json "$MODULE@$VERSION")
field() { printf '%s\n' "$json" | sed -n "s/^[[:space:]]*\"$1\": \"\\(.*\\)\",\{0,1\}\$/\\1/p" | sed -n 1p; }
dir=$(field Dir)
sum=$(field Sum)
err=$(field Error)
if [ -n "$err" ]; then
	echo "fetch-llama: go mod download $MODULE@$VERSION: $err" >&2
	exit 1
fi
if [ "$sum" != "$WANT_SUM" ]; then
	echo "fetch-llama: $MODULE@$VERSION has checksum $sum, want $WANT_SUM" >&2
	exit 1
fi
for p in llama/llama.cpp/include/llama.h llama/llama.cpp/src/llama.cpp ml/backend/ggml/ggml/src/CMakeLists.txt; do
	if [ ! -f "$dir/$p" ]; then
		echo "fetch-llama: $dir/$p missing" >&2
		exit 1
	fi
done
echo "LLAMA_SRC=$dir/llama/llama.cpp"
echo "GGML_SRC=$dir/ml/backend/ggml/ggml"
