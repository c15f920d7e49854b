#!/usr/bin/env bash
# Configure-only checks of the GPU build branches, for machines without
# their SDKs (CI): runs cmake/backends.cmake's CUDA/Metal/Vulkan logic
# (architectures, link flags) on made-up inputs and checks the results
# (cmake -P cmake/check-backends.cmake), then configures (no build) every
# backend whose SDK is installed here: cuda when nvcc is found, metal on
# macOS, vulkan when glslc is found. Scratch build directories go under
# ${TMPDIR:-/tmp} and are removed.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake -P cmake/check-backends.cmake

eval "$(scripts/fetch-llama.sh)"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/lmeval-configure.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
configure() {
	echo "configure-check: configuring $1" >&2
	cmake -S . -B "$scratch/$1" -DLMEVAL_LLAMA_SRC="$LLAMA_SRC" -DLMEVAL_GGML_SRC="$GGML_SRC" "${@:2}" >"$scratch/$1.log" 2>&1 || {
		cat "$scratch/$1.log" >&2
		echo "configure-check: configuring $1 failed" >&2
		exit 1
	}
	grep -q "CGO_LDFLAGS=" "$scratch/$1/cgo.env" || {
		echo "configure-check: $1: no cgo.env written" >&2
		exit 1
	}
	echo "configure-check: $1: $(grep CGO_LDFLAGS= "$scratch/$1/cgo.env" | sed 's/.*--end-group//')" >&2
}
if command -v nvcc >/dev/null 2>&1; then
	configure cuda -DGGML_CUDA=ON
else
	echo "configure-check: no nvcc: cuda checked by cmake/check-backends.cmake only" >&2
fi
if [ "$(uname)" = Darwin ]; then
	configure metal -DGGML_METAL=ON
else
	echo "configure-check: not macOS: metal checked by cmake/check-backends.cmake only" >&2
fi
if command -v glslc >/dev/null 2>&1; then
	configure vulkan -DGGML_VULKAN=ON
fi
