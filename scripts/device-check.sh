#!/usr/bin/env bash
# Checks a GPU build end to end on the machine it runs on, offline, and
# writes a short report. Two ways:
#
# Building here (a GPU machine with Go, CMake, a C++ compiler, the GPU SDK):
#   1. builds the backend (make BACKEND=<backend> lmeval) from the sources in
#      this checkout, or from a bundle (make bundle) when the machine cannot
#      download: --bundle DIR points at the unpacked bundle (its goproxy/);
#   2. runs the engine's and the end-to-end tests with every layer on the GPU
#      (LMEVAL_REQUIRE_GPU=1: a build that finds no GPU fails): GPU-vs-CPU
#      log-likelihoods, greedy generations, partial offload, auto sizing from
#      the device's memory, --device;
#   3. runs the engine benchmark (make bench-engine) with every workload on the GPU
#      and, side by side, on the CPU (n_gpu_layers=0) of the same binary, at
#      the automatic cache size and at n_ctx 4096;
#   4. writes OUT/report.md (and the full logs next to it).
#
# From a pack (--pack FILE: scripts/device-pack.sh), on a GPU machine with
# no Go and no network, in one call within a time budget (--budget
# seconds, default 540: the lent H200's command limit is 600): builds the
# GPU backend module and a CPU one for that processor from the pack's
# pinned ggml, and llama.cpp's tools from the pack's peer llama.cpp, while
# writing an 8B-Llama-shaped model there (F16 and Q4_K_M); runs the GPU
# tests and benches the 8B model against the tools on the same GPU; always
# writes OUT/report.md and OUT/logs.tar.gz. See run_pack below and
# docs/build.md, "The GPU machine".
#
#   scripts/device-check.sh [--backend cuda|vulkan|metal] [--bundle DIR | --pack FILE] [--out DIR] [--quick] [--tests REGEXP] [--budget S]
#
# --quick benches stories260K only, with small workloads (with --pack: a
# 2-layer model of the 8B's width and small workloads); --tests limits the
# tests to those matching REGEXP (go test -run). CI runs it on the Vulkan
# build with lavapipe, Mesa's software device, as --quick --tests
# 'GPU|RunDevice': ggml-vulkan's numbers are wrong there, so only the device
# plumbing is tested (docs/engine.md). Exit status: 0 when
# the build and the tests pass, 1 otherwise (the report says which).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

backend=cuda
bundle=""
pack=""
budget=540
out=build/device-check
quick=0
tests=""
while [ $# -gt 0 ]; do
	case $1 in
	--backend) backend=$2; shift 2 ;;
	--bundle) bundle=$2; shift 2 ;;
	--pack) pack=$2; shift 2 ;;
	--budget) budget=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--tests) tests=$2; shift 2 ;;
	*) echo "device-check: unknown argument $1 (see the script's header)" >&2; exit 2 ;;
	esac
done
case $backend in cuda | vulkan | metal) ;; *) echo "device-check: --backend $backend: want cuda, vulkan or metal" >&2; exit 2 ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
report=$out/report.md

if [ -n "$bundle" ]; then
	bundle=$(cd "$bundle" && pwd)
	if [ ! -d "$bundle/goproxy" ]; then
		echo "device-check: $bundle has no goproxy/ (unpack the file make bundle wrote)" >&2
		exit 2
	fi
	# Everything from the bundle: no network, no checksum database (go.sum
	# and fetch-llama.sh's pinned hash still verify every module).
	export GOPROXY="file://$bundle/goproxy" GOSUMDB=off GOTOOLCHAIN=local
	export GOMODCACHE="$out/gomodcache"
	[ -d vendor ] && export GOFLAGS=-mod=vendor
fi
if [ "$backend" = vulkan ] && [ -z "${GGML_VK_VISIBLE_DEVICES:-}" ] && command -v vulkaninfo >/dev/null 2>&1; then
	# ggml skips CPU-type Vulkan devices (lavapipe) unless named.
	# grep without -q reads everything: an early exit would SIGPIPE
	# vulkaninfo and, under pipefail, read as "no GPU".
	if ! vulkaninfo --summary 2>/dev/null | grep -E 'PHYSICAL_DEVICE_TYPE_(DISCRETE|INTEGRATED)_GPU' >/dev/null; then
		export GGML_VK_VISIBLE_DEVICES=0
	fi
fi
if [ -n "$pack" ]; then
	# shellcheck source=scripts/device-pack-run.sh
	. scripts/device-pack-run.sh
	run_pack
	exit $?
fi

status=0
step() { # step NAME LOG COMMAND...: runs a step, logging it, recording failure
	local name=$1 log=$2
	shift 2
	echo "device-check: $name" >&2
	local t0=$SECONDS
	if "$@" >"$log" 2>&1; then
		echo "- $name: ok ($((SECONDS - t0)) s; log: $(basename "$log"))" >>"$report.steps"
	else
		echo "- $name: FAILED ($((SECONDS - t0)) s; log: $(basename "$log"); last lines below)" >>"$report.steps"
		tail -n 15 "$log" | sed 's/^/      /' >>"$report.steps"
		status=1
		return 1
	fi
}
: >"$report.steps"

{
	echo "# lmeval device check: $backend"
	echo
	echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ), host: $(uname -srm), CPUs: $(getconf _NPROCESSORS_ONLN)"
	echo "- lmeval commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(go version)"
	[ -n "$bundle" ] && echo "- built offline from the bundle $bundle"
	command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L | sed 's/^/- nvidia-smi: /'
	command -v nvcc >/dev/null 2>&1 && echo "- nvcc: $(nvcc --version | tail -n1)"
	if [ "$backend" = vulkan ] && command -v vulkaninfo >/dev/null 2>&1; then
		vulkaninfo --summary 2>/dev/null | grep -E 'deviceName|driverName' | sed 's/^[[:space:]]*/- vulkan: /'
		echo "- GGML_VK_VISIBLE_DEVICES=${GGML_VK_VISIBLE_DEVICES:-}"
	fi
} >"$report"

if step "build (make BACKEND=$backend lmeval)" "$out/build.log" make BACKEND="$backend" lmeval; then
	./lmeval version >"$out/version.txt" 2>&1 || true
	if ! grep -q '^device .*(\(CUDA\|Vulkan\|Metal\), \(gpu\|igpu\))' "$out/version.txt"; then
		echo "- lmeval version lists no GPU device: everything would run on the CPU" >>"$report.steps"
		status=1
	fi
	export LMEVAL_REQUIRE_GPU=1
	# Verbose: the report quotes the GPU-vs-CPU comparisons from this log.
	step "GPU tests (engine, backend/llama, cmd/lmeval; every layer on the GPU)" "$out/test.log" \
		make BACKEND="$backend" TESTPKGS="./engine ./backend/llama ./cmd/lmeval" TESTFLAGS="-v ${tests:+-run '$tests'}" test || true
	if [ $quick = 1 ]; then
		# Small enough for lavapipe, which decodes stories260K at ~30-100
		# tokens/s on two cores.
		args="-no-random -caches auto -mc 2 -mc-tokens 32 -gen 2 -gen-tokens 4 -gen-prompt 16 -rolling 600 -max-length 256 -raw-tokens 128 -compare-cpu"
	else
		args="-compare-cpu"
	fi
	step "bench, GPU and CPU side by side (make bench-engine BENCH_ARGS='$args')" "$out/bench.log" \
		make BACKEND="$backend" BENCH_ARGS="$args" bench-engine || true
fi

{
	echo
	echo "## Steps"
	echo
	cat "$report.steps"
	if [ -f "$out/version.txt" ]; then
		echo
		echo "## lmeval version"
		echo
		sed 's/^/    /' "$out/version.txt"
	fi
	if [ -f "$out/test.log" ]; then
		echo
		echo "## GPU against CPU"
		echo
		grep -E 'gpu_test.go:[0-9]+:|--- (PASS|FAIL|SKIP): Test[A-Za-z]*(GPU|RunDevice)' "$out/test.log" | sed 's/^[[:space:]]*/    /' || true
	fi
	if [ -f "$out/bench.log" ]; then
		echo
		echo "## Bench"
		echo
		grep -vE '^(INFO|WARN|[0-9]{4}/)' "$out/bench.log" || true
	fi
	echo
	if [ $status = 0 ]; then echo "Result: PASS"; else echo "Result: FAIL"; fi
} >>"$report"
rm -f "$report.steps"
echo "device-check: report in $report" >&2
exit $status
