#!/usr/bin/env bash
# Checks `make cuda` on a machine without an NVIDIA GPU or driver (CI):
#
#   scripts/cuda-check.sh        CUDA_ARCHS (default 90-real) picks the architectures
#
# 1. builds it: `make cuda` with CMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHS, with
#    the system's toolkit or, when there is none, NVIDIA's wheels from PyPI
#    (scripts/native.sh runs scripts/cuda-toolkit.sh). CI builds one
#    architecture, sm_90 (docs/build.md, "CUDA", says why);
# 2. checks that the binary links completely: `ldd -r` finds every library
#    it needs and every symbol it takes from them;
# 3. checks that the CUDA backend is registered: `lmeval version` lists
#    "backend CUDA: 0 devices" and, in its system line, CUDA's features
#    with the architectures compiled in (ARCHS, from __CUDA_ARCH_LIST__);
# 4. runs toy_mc on stories260K with that binary (when ../shared has the
#    model): a CUDA build that finds no GPU runs on the CPU and says so.
#
# Without a driver there is no libcuda.so.1, which the binary needs (the
# driver API, for ggml-cuda's virtual memory pool), so it would not start.
# Steps 2-4 put the toolkit's driver stub (lib64/stubs/libcuda.so: every
# driver function, each returning CUDA_ERROR_STUB_LIBRARY) on
# LD_LIBRARY_PATH under that name, for these commands only. That is sound:
# every other library is the real one (cudart, cuBLAS, libstdc++, libgomp),
# the stub has exactly the driver API of the toolkit's cuda.h, so `ldd -r`
# proves the binary asks the driver for nothing a driver of that CUDA
# version lacks; and with the stub cudart reports "CUDA driver is a stub
# library", so ggml-cuda registers its backend with no device: what the
# binary does on a machine with a driver and no GPU. With a real driver
# (libcuda.so.1 found), no stub is used.
set -euo pipefail
cd "$(dirname "$0")/.."
archs=${CUDA_ARCHS:-90-real}

make cuda CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=$archs"

stubdir=""
driver=$(sed -n 's/^CUDA_cuda_driver_LIBRARY:FILEPATH=//p' build/cuda/CMakeCache.txt)
# grep reads ldconfig's output to the end: an early exit would SIGPIPE
# ldconfig and, under pipefail, read as "no driver".
if ! ldconfig -p 2>/dev/null | grep 'libcuda\.so\.1 ' >/dev/null; then
	case $driver in
	*/stubs/*) ;;
	*)
		echo "cuda-check: no libcuda.so.1 on this machine and no toolkit stub (CUDA_cuda_driver_LIBRARY=$driver)" >&2
		exit 1
		;;
	esac
	stubdir=$(mktemp -d "${TMPDIR:-/tmp}/lmeval-cuda-stub.XXXXXX")
	trap 'rm -rf "$stubdir"' EXIT
	ln -s "$driver" "$stubdir/libcuda.so.1"
	echo "cuda-check: no NVIDIA driver here: the toolkit's stub $driver stands in for libcuda.so.1" >&2
fi
run() { LD_LIBRARY_PATH="${stubdir}${stubdir:+:}${LD_LIBRARY_PATH:-}" "$@"; }

fail=0
deps=$(run ldd -r ./lmeval 2>&1)
echo "$deps" | grep -E 'libcuda|libcudart|libcublas' >&2 || true
if echo "$deps" | grep -E 'not found|undefined symbol' >&2; then
	echo "cuda-check: ./lmeval does not link completely (above)" >&2
	fail=1
fi

version=$(run ./lmeval version 2>&1) || echo "cuda-check: lmeval version failed" >&2
echo "$version" >&2
want_archs=$(echo "$archs" | tr ';' '\n' | sed -E 's/-(real|virtual)$//' | sort -n | sed 's/$/0/' | paste -sd, -)
if ! echo "$version" | grep -q '^backend CUDA: [0-9]* device'; then
	echo "cuda-check: lmeval version lists no CUDA backend" >&2
	fail=1
fi
if ! echo "$version" | grep -q "CUDA : ARCHS = $want_archs "; then
	echo "cuda-check: lmeval version does not report CUDA ARCHS = $want_archs" >&2
	fail=1
fi

model=../shared/models/stories260K.gguf
if [ -f "$model" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/lmeval-cuda-run.XXXXXX")
	# From harness/: the toy tasks name their data files relative to it.
	if (cd harness && run ../lmeval run --model_args "pretrained=$(cd ../"$(dirname "$model")" && pwd)/$(basename "$model")" \
		--tasks toy_mc --include_path testdata/tasks --output_path "$out" >"$out/log" 2>&1) &&
		grep -q '"device": "cpu"' "$out"/*/results_*.json; then
		echo "cuda-check: toy_mc ran on the CPU of the CUDA build" >&2
	else
		cat "$out/log" >&2
		echo "cuda-check: lmeval run with the CUDA build failed (or did not say it ran on the CPU)" >&2
		fail=1
	fi
	rm -rf "$out"
else
	echo "cuda-check: $model not available: the run is skipped" >&2
fi
if [ $fail = 0 ]; then
	echo "cuda-check: make cuda ($archs) builds, links completely and registers the CUDA backend" >&2
fi
exit $fail
