# scripts/device-check.sh --pack FILE: the check on a GPU machine without
# Go or network, from the pack scripts/device-pack.sh wrote. Sourced by
# device-check.sh, which has parsed the arguments (backend, pack, budget,
# out, report, quick, tests). docs/build.md, "The GPU machine", has the
# command and the time budget.
#
# Everything happens in one call, within --budget seconds (the lent H200:
# 10 minutes a command, 15 minutes of GPU time in all, the machine's start
# included), in this order, each step with a cap and skipped, with a note,
# when too little time is left for it; the report is always written:
#
#   step                                             cap (s)     at least (s)
#   unpack the pack into build/device-pack              60           5
#   in the background, together (-j all CPUs):
#     the GPU backend module (sm_XY of the GPU found)
#       and a CPU module for this processor         left - 200       -
#     llama.cpp's tools from the pack's peer sources  left - 200       -
#     the models: F16 8B Llama shape (ggufwrite),
#       then Q4_K_M (engine.Quantize)               left - 200       -
#   lmeval version (the GPU must be listed)             30          10
#   GPU tests: engine -run GPU                          90          20
#   GPU tests: cmd/lmeval -run RunDevice                60          20
#   bench Q4_K_M against the tools on the same GPU     150         100
#   HellaSwag-sized run (10,042 x 4), Q4_K_M           180          90
#   bench F16 against the tools                        150         100
#   report (reserved)                                   25           -
#
# With --budget 540 the builds get about 300 s; the steps after them start
# as soon as the module is built (the tools and the models are waited for
# when the benches need them), in the order of the goals' importance, so
# what is cut when time runs short is the F16 bench, then the
# HellaSwag-sized run. --quick (a software device such as lavapipe, whose
# tests run far slower) multiplies the caps and minimums after the builds
# by 10.

# pack_left: seconds left before the report's reserve.
pack_left() { echo $((pack_deadline - SECONDS - 25)); }

# pack_note TEXT: a line of the report's steps.
pack_note() { echo "- $*" >>"$report.steps"; echo "device-check: $*" >&2; }

# pack_step NAME LOG NEED CAP COMMAND...: runs COMMAND with a timeout of
# CAP seconds or what is left, when at least NEED seconds are left.
pack_step() {
	local name=$1 log=$2 need=$3 cap=$4 left t0=$SECONDS rc=0
	shift 4
	left=$(pack_left)
	if [ "$left" -lt "$need" ]; then
		pack_note "$name: SKIPPED: needs about $need s, $left s left"
		return 2
	fi
	[ "$cap" -gt "$left" ] && cap=$left
	echo "device-check: $name (at most $cap s)" >&2
	timeout --kill-after=5 "$cap" "$@" >"$log" 2>&1 || rc=$?
	pack_result "$name" "$log" "$rc" "$((SECONDS - t0))" "$cap"
	return "$rc"
}

# pack_result NAME LOG RC SECONDS CAP: records a step's outcome.
pack_result() {
	local name=$1 log=$2 rc=$3 took=$4 cap=$5
	if [ "$rc" = 0 ]; then
		pack_note "$name: ok ($took s; log: $(basename "$log"))"
	else
		local why="FAILED (exit $rc)"
		[ "$rc" = 124 ] || [ "$rc" = 137 ] && why="TIMED OUT after $cap s"
		pack_note "$name: $why ($took s; log: $(basename "$log"); last lines below)"
		tail -n 12 "$log" | sed 's/^/      /' >>"$report.steps"
		status=1
	fi
}

# pack_bg NAME LOG CAP COMMAND...: starts COMMAND in the background with a
# timeout; pack_wait NAME waits for it and records the result.
declare -A pack_pids pack_logs pack_t0 pack_caps
pack_bg() {
	local name=$1 log=$2 cap=$3
	shift 3
	echo "device-check: started $name (at most $cap s)" >&2
	timeout --kill-after=5 "$cap" "$@" >"$log" 2>&1 &
	pack_pids[$name]=$!
	pack_logs[$name]=$log
	pack_t0[$name]=$SECONDS
	pack_caps[$name]=$cap
}
pack_wait() {
	local name=$1 rc=0
	[ -n "${pack_pids[$name]:-}" ] || return 1
	wait "${pack_pids[$name]}" || rc=$?
	pack_result "$name" "${pack_logs[$name]}" "$rc" "$((SECONDS - pack_t0[$name]))" "${pack_caps[$name]}"
	unset "pack_pids[$name]"
	return "$rc"
}

# pack_cpu_flags: ggml's CPU instruction-set options for this processor
# (GGML_NATIVE is refused with loadable backends).
pack_cpu_flags() {
	local f
	f=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
	has() { [[ $f == *" $1 "* ]]; }
	has sse4_2 && echo -DGGML_SSE42=ON
	has avx && echo -DGGML_AVX=ON
	has avx2 && echo -DGGML_AVX2=ON
	has f16c && echo -DGGML_F16C=ON
	has fma && echo -DGGML_FMA=ON
	has bmi2 && echo -DGGML_BMI2=ON
	has avx512f && has avx512cd && has avx512vl && has avx512dq && has avx512bw && echo -DGGML_AVX512=ON
	has avx512vbmi && echo -DGGML_AVX512_VBMI=ON
	has avx512_vnni && echo -DGGML_AVX512_VNNI=ON
	has avx512_bf16 && echo -DGGML_AVX512_BF16=ON
	has avx_vnni && echo -DGGML_AVX_VNNI=ON
	return 0
}

# pack_cuda_setup: CMake arguments for the machine's CUDA toolkit in
# pack_gpu_args, for the architecture of its GPU; when the toolkit has no
# cuBLAS, the Python environment's (PyTorch's nvidia-cublas wheel) is used
# and put on LD_LIBRARY_PATH.
pack_cuda_setup() {
	local nvcc tk arch lib inc
	nvcc=$(command -v nvcc || true)
	[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
	if [ -z "$nvcc" ]; then
		pack_note "no nvcc on this machine"
		return 1
	fi
	nvcc=$(readlink -f "$nvcc")
	tk=$(dirname "$(dirname "$nvcc")")
	arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | sed -n 1p | tr -d ' .')
	arch=${arch:+${arch}-real}
	pack_gpu_args=(-DGGML_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" -DCUDAToolkit_ROOT="$tk" -DCMAKE_CUDA_ARCHITECTURES="${arch:-native}")
	echo "- CUDA: $nvcc ($("$nvcc" --version | sed -n '$p')), architecture ${arch:-native}" >>"$report.env"
	if ls "$tk"/lib64/libcublas.so* "$tk"/lib/libcublas.so* "$tk"/targets/*/lib/libcublas.so* >/dev/null 2>&1; then
		return 0
	fi
	lib=$(python3 -c 'import glob, site, os
for d in site.getsitepackages():
    for p in sorted(glob.glob(os.path.join(d, "nvidia", "*", "lib", "libcublas.so.*"))):
        print(os.path.dirname(p)); raise SystemExit' 2>/dev/null || true)
	if [ -z "$lib" ] || [ ! -f "$lib/../include/cublas_v2.h" ]; then
		pack_note "no cuBLAS in $tk nor in python3's nvidia packages"
		return 1
	fi
	inc=$(cd "$lib/../include" && pwd)
	mkdir -p "$pack_work/cublas/include" "$pack_work/cublas/lib"
	ln -sf "$inc"/cublas*.h "$pack_work/cublas/include/"
	for l in cublas cublasLt; do
		ln -sf "$(ls "$lib"/lib$l.so.* | sed -n 1p)" "$pack_work/cublas/lib/lib$l.so"
	done
	pack_gpu_args+=(-DCUDA_cublas_LIBRARY="$pack_work/cublas/lib/libcublas.so" -DCUDA_cublasLt_LIBRARY="$pack_work/cublas/lib/libcublasLt.so"
		-DCMAKE_CUDA_FLAGS="-I$pack_work/cublas/include")
	export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	echo "- cuBLAS: $lib (the toolkit has none)" >>"$report.env"
}

# pack_bench_row LOG WORKLOAD COLUMN: a column of the bench table's first
# row for the workload ("(a)"...; columns as the table's, from 1).
pack_bench_row() {
	grep -F "| $2 " "$1" 2>/dev/null | sed -n 1p | awk -F'|' -v c="$3" '{gsub(/^ +| +$/, "", $(c + 1)); print $(c + 1)}'
}

run_pack() {
	pack_deadline=$((SECONDS + budget))
	pack_work=build/device-pack
	status=0
	rm -rf "$pack_work"
	mkdir -p "$pack_work/logs"
	pack_work=$(cd "$pack_work" && pwd)
	local logs=$pack_work/logs bin=$pack_work/pack/bin src=$pack_work/pack/src jobs
	jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
	: >"$report.steps"
	: >"$report.env"
	trap 'pack_report' EXIT
	{
		echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ), host: $(uname -srm), CPUs: $jobs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
		echo "- budget: $budget s; pack: $pack"
		command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader | sed 's/^/- GPU: /'
	} >>"$report.env"

	pack_step "unpack the pack" "$logs/unpack.log" 5 60 tar -xJf "$pack" -C "$pack_work" || return 1
	sed 's/^/    /' "$pack_work/pack/PACK" | grep -v '  [0-9a-f]\{64\}  ' >>"$report.env"
	export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	# The tests find their models in ../shared beside the repository.
	if [ ! -f ../shared/models/stories260K.gguf ]; then
		mkdir -p ../shared/models/vocab
		cp "$pack_work/pack/models/stories260K.gguf" ../shared/models/
		cp "$pack_work/pack/models/vocab/"*.gguf ../shared/models/vocab/
		pack_note "../shared/models made from the pack's models"
	fi

	pack_gpu_args=()
	case $backend in
	cuda) pack_cuda_setup || return 1 ;;
	vulkan) pack_gpu_args=(-DGGML_VULKAN=ON) ;;
	metal) pack_gpu_args=(-DGGML_METAL=ON) ;;
	esac
	local gen=()
	command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
	local cpu_flags
	mapfile -t cpu_flags < <(pack_cpu_flags)
	echo "- CPU module: ${cpu_flags[*]:-baseline x86-64}" >>"$report.env"
	local cap=$(($(pack_left) - 200)) x=1
	[ "$cap" -lt 60 ] && cap=60
	[ "$quick" = 1 ] && x=10
	pack_bg "build the $backend and CPU backend modules" "$logs/build-modules.log" "$cap" bash -c '
		cmake -S . -B "$1/modules" "${@:4}" -DCMAKE_BUILD_TYPE=Release -DLMEVAL_BACKEND_DL=ON \
			-DLMEVAL_LLAMA_SRC="$2/llama" -DLMEVAL_GGML_SRC="$2/ggml" &&
			cmake --build "$1/modules" -j "$3" --target ggml-cpu "ggml-'"$backend"'"' _ "$pack_work" "$src" "$jobs" "${gen[@]}" "${cpu_flags[@]}" "${pack_gpu_args[@]}"
	local peer_args=("${pack_gpu_args[@]}")
	if [ "$backend" = vulkan ] && [ "$quick" = 1 ]; then
		# The peers' ggml-vulkan wants newer Vulkan headers than a software
		# device's distribution may have (Debian 12's 1.3.239 lack
		# VK_EXT_layer_settings, which cmake/vulkan-compat.h supplies for the
		# pinned ggml only); on lavapipe their numbers mean nothing anyway.
		peer_args=()
		pack_note "--quick on Vulkan: llama.cpp's tools are built for the CPU"
	fi
	pack_bg "build llama.cpp's tools (peers)" "$logs/build-peers.log" "$cap" bash -c '
		cmake -S cmake/peer -B "$1/peer" "${@:4}" -DCMAKE_BUILD_TYPE=Release -DPEER_SRC="$2/peer" &&
			cmake --build "$1/peer" -j "$3" --target llama-perplexity llama-bench llama-batched-bench' _ "$pack_work" "$src" "$jobs" "${gen[@]}" "${peer_args[@]}"
	# The 8B Llama shape (Llama 3 8B's sizes, Llama 2's 32,000-token
	# vocabulary); --quick: 2 small layers, for a software device.
	local shape=(-random-embd 4096 -random-layers 32 -random-ff 14336 -random-kv-heads 8)
	[ "$quick" = 1 ] && shape=(-random-embd 256 -random-layers 2 -random-ff 512 -random-kv-heads 2)
	pack_bg "write the models (F16 by ggufwrite, Q4_K_M by engine.Quantize)" "$logs/models.log" "$cap" \
		"$bin/lmeval-bench" -write-models "$pack_work/models" "${shape[@]}" -vocab "$pack_work/pack/models/vocab/ggml-vocab-llama-spm.gguf"

	pack_wait "build the $backend and CPU backend modules" || return 1
	cp "$pack_work"/modules/bin/libggml-cpu*.so "$pack_work/modules/bin/libggml-$backend"*.so "$bin/"

	pack_step "lmeval version" "$logs/version.txt" 10 30 "$bin/lmeval" version || true
	if ! grep -q '^device .*(\(CUDA\|Vulkan\|Metal\), \(gpu\|igpu\))' "$logs/version.txt"; then
		pack_note "lmeval version lists no GPU device: everything would run on the CPU"
		status=1
	fi
	export LMEVAL_REQUIRE_GPU=1
	pack_step "GPU tests: engine (-run '${tests:-GPU}')" "$logs/gpu-tests.log" $((20 * x)) $((90 * x)) \
		bash -c 'cd engine && exec "$1" -test.run "$2" -test.v -test.count=1' _ "$bin/engine.test" "${tests:-GPU}" || true
	pack_step "GPU tests: cmd/lmeval (-run RunDevice)" "$logs/device-test.log" $((20 * x)) $((60 * x)) \
		bash -c 'cd cmd/lmeval && LMEVAL_TEST_BINARY="$1" exec "$2" -test.run RunDevice -test.v -test.count=1' _ "$bin/lmeval" "$bin/lmeval.test" || true

	local models_ok=0 peers="$pack_work/peer/bin"
	pack_wait "write the models (F16 by ggufwrite, Q4_K_M by engine.Quantize)" && models_ok=1
	pack_wait "build llama.cpp's tools (peers)" || peers=/nonexistent
	[ "$peers" = /nonexistent ] && pack_note "the benches run without llama.cpp's tools"
	if [ $models_ok = 0 ]; then
		return 1
	fi
	local f16 q4
	f16=$(ls "$pack_work"/models/*-f16.gguf)
	q4=$(ls "$pack_work"/models/*-q4_k_m.gguf)
	local common=(-stories "" -no-random -caches auto -mem=false -serve-clients "" -threads "$jobs" -peer "$peers")
	local sizes=(-mc 500 -mc-tokens 64 -mc-ending-words 18 -rolling 32768 -max-length 512 -gen 128 -gen-tokens 64 -gen-prompt 164 -raw-tokens 16384)
	local hs=10042
	if [ "$quick" = 1 ]; then
		sizes=(-mc 8 -mc-tokens 32 -mc-ending-words 4 -rolling 600 -max-length 256 -gen 2 -gen-tokens 4 -gen-prompt 16 -raw-tokens 128)
		hs=40
	fi
	pack_step "bench Q4_K_M, against llama.cpp's tools on the same device" "$logs/bench-q4_k_m.log" $((100 * x)) $((150 * x)) \
		"$bin/lmeval-bench" -models "$q4" "${common[@]}" "${sizes[@]}" || true
	pack_step "HellaSwag-sized run: $hs questions x 4 endings, Q4_K_M" "$logs/hellaswag.log" $((90 * x)) $((180 * x)) \
		"$bin/lmeval-bench" -models "$q4" "${common[@]}" -peer /nonexistent -workloads a -mc "$hs" -mc-tokens 64 -mc-ending-words 18 -raw-tokens 16384 || true
	pack_step "bench F16, against llama.cpp's tools on the same device" "$logs/bench-f16.log" $((100 * x)) $((150 * x)) \
		"$bin/lmeval-bench" -models "$f16" "${common[@]}" "${sizes[@]}" || true
	return $status
}

# pack_report: OUT/report.md and OUT/logs.tar.gz, whatever happened.
pack_report() {
	local rc=$? logs=$pack_work/logs
	trap - EXIT
	[ "$rc" != 0 ] && status=1
	{
		echo "# lmeval device check (pack): $backend"
		echo
		cat "$report.env"
		echo
		echo "## Steps"
		echo
		cat "$report.steps"
		if [ -f "$logs/version.txt" ]; then
			echo
			echo "## lmeval version"
			echo
			sed 's/^/    /' "$logs/version.txt"
		fi
		echo
		echo "## GPU against CPU (stories260K, f32 KV cache)"
		echo
		cat "$logs/gpu-tests.log" "$logs/device-test.log" 2>/dev/null | grep -E '_test.go:[0-9]+:|--- (PASS|FAIL|SKIP)' | sed 's/^[[:space:]]*/    /' || true
		echo
		echo "## Goals"
		echo
		pack_goals
		for b in bench-q4_k_m hellaswag bench-f16; do
			if [ -f "$logs/$b.log" ]; then
				echo
				echo "## $b"
				echo
				grep -vE '^(INFO|WARN|[0-9]{4}/)' "$logs/$b.log" || true
			fi
		done
		echo
		if [ "$status" = 0 ]; then echo "Result: PASS"; else echo "Result: FAIL"; fi
	} >"$report"
	rm -f "$report.steps" "$report.env"
	tar -C "$pack_work" -czf "$out/logs.tar.gz" logs 2>/dev/null || true
	echo "device-check: report in $report, logs in $out/logs.tar.gz" >&2
	exit "$status"
}

# pack_goals: the issue's goals for the H200, from the bench logs.
pack_goals() {
	local logs=$pack_work/logs q4log hslog mc pp wall mem
	q4log=$logs/bench-q4_k_m.log
	hslog=$logs/hellaswag.log
	mc=$(grep -o '(a): llama-perplexity --hellaswag.*lmeval [0-9.]*x faster' "$q4log" 2>/dev/null | grep -o '[0-9.]*x faster' | tr -d 'x faster')
	pp=$(grep -o "(a): llama-bench pp512.*of pp512" "$q4log" 2>/dev/null | grep -o '[0-9.]*x of pp512' | sed 's/x of pp512//')
	wall=$(pack_bench_row "$hslog" "auto" 9)
	mem=$(pack_bench_row "$hslog" "auto" 11)
	echo "| goal (8B Llama shape, Q4_K_M, H200) | measured | |"
	echo "|---|---:|---|"
	verdict() { [ -z "$1" ] && echo "not measured" && return; awk -v v="$1" -v g="$2" -v op="$3" 'BEGIN { ok = (op == ">=") ? v >= g : v <= g; print (ok ? "met" : "NOT met") }'; }
	echo "| multiple choice >= 3x llama-perplexity --hellaswag | ${mc:--}x | $(verdict "$mc" 3 '>=') |"
	echo "| HellaSwag-sized run <= 60 s | ${wall:--} s | $([ "$quick" = 1 ] && echo "scaled down (--quick)" || verdict "$wall" 60 '<=') |"
	echo "| end-to-end tok/s >= 0.9 x llama-bench pp512 | ${pp:--}x | $(verdict "$pp" 0.9 '>=') |"
	echo "| peak GPU memory of the HellaSwag-sized run | ${mem:--} | |"
}
