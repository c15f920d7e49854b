#!/usr/bin/env bash
# Configures (once) and builds the native engine for one backend into
# build/<backend>/: llama.cpp + ggml static libraries, the csrc/ shim, and
# build/<backend>/cgo.env with the cgo flags that link them.
#
#   scripts/native.sh cpu|cuda|metal|vulkan|dl
#
# dl: ggml's backends as run-time loadable modules (LMEVAL_BACKEND_DL; the
# device check's pack, docs/build.md); add -DGGML_CUDA=ON etc. in CMAKE_ARGS
# to build a GPU module too.
#
# Environment: LLAMA_CPP_DIR=/path/to/llama.cpp builds an upstream checkout
# instead of the pinned sources; CMAKE_ARGS adds cmake options; JOBS sets
# the parallelism (default: number of CPUs); CUDA_TOOLKIT=DIR builds cuda
# with the toolkit at DIR (see below).
set -euo pipefail
cd "$(dirname "$0")/.."

backend=${1:-cpu}
build=build/$backend
case $backend in
cpu) flags=() ;;
cuda)
	flags=(-DGGML_CUDA=ON)
	# The toolkit: CUDA_TOOLKIT when set; else the system's, found as
	# CMake finds it (nvcc on PATH, CUDACXX, CUDAToolkit_ROOT, CUDA_PATH,
	# /usr/local/cuda); else NVIDIA's wheels from PyPI, which
	# scripts/cuda-toolkit.sh installs under build/cuda-toolkit (once).
	if [ -z "${CUDA_TOOLKIT:-}" ] && ! command -v nvcc >/dev/null 2>&1 &&
		[ -z "${CUDACXX:-}${CUDAToolkit_ROOT:-}${CUDA_PATH:-}" ] && [ ! -x /usr/local/cuda/bin/nvcc ]; then
		echo "native.sh: no CUDA toolkit (nvcc) found; using NVIDIA's from PyPI (scripts/cuda-toolkit.sh)" >&2
		eval "$(scripts/cuda-toolkit.sh)"
	fi
	if [ -n "${CUDA_TOOLKIT:-}" ]; then
		flags+=(-DCUDAToolkit_ROOT="$CUDA_TOOLKIT" -DCMAKE_CUDA_COMPILER="$CUDA_TOOLKIT/bin/nvcc")
	fi
	;;
metal) flags=(-DGGML_METAL=ON) ;;
vulkan) flags=(-DGGML_VULKAN=ON) ;;
dl) flags=(-DLMEVAL_BACKEND_DL=ON) ;;
*)
	echo "native.sh: unknown backend $backend (want cpu, cuda, metal, vulkan or dl)" >&2
	exit 2
	;;
esac

if [ -n "${LLAMA_CPP_DIR:-}" ]; then
	src=(-DLLAMA_CPP_DIR="$(cd "$LLAMA_CPP_DIR" && pwd)")
else
	eval "$(scripts/fetch-llama.sh)"
	src=(-DLMEVAL_LLAMA_SRC="$LLAMA_SRC" -DLMEVAL_GGML_SRC="$GGML_SRC")
fi

# A build directory belongs to one source tree: switching between the
# pinned sources and LLAMA_CPP_DIR starts it afresh.
stamp="$build/.lmeval-source"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "${src[*]}" ]; then
	echo "native.sh: llama.cpp source changed; rebuilding $build from scratch" >&2
	rm -rf "$build"
fi
if [ ! -f "$build/CMakeCache.txt" ] || [ -n "${CMAKE_ARGS:-}" ]; then
	echo "native.sh: configuring $build" >&2
	# shellcheck disable=SC2086
	cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "${src[@]}" "${flags[@]}" ${CMAKE_ARGS:-} >&2
fi
printf '%s' "${src[*]}" >"$stamp"
jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
# Not the calling make's flags: they would make the sub-make chatty.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL cmake --build "$build" --target lmeval_native -j "$jobs" >&2
