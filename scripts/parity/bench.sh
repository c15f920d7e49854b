#!/usr/bin/env bash
# bench.sh: make bench's side-by-side with lm-eval's Hugging Face backend.
# The random-weight F16 Llama that cmd/lmeval-bench measures (134M
# parameters, Llama's 32k vocabulary) on lm-eval's own YAML over enough
# seeded documents that fixed costs do not decide (speedtasks.py), both
# programs on the same threads in one run: wall and CPU seconds per task
# and the ratios (scripts/parity/parity.py --speed). PARITY_SPEED=N_MC,N_GEN
# sets the documents (default 100 questions per multiple-choice task, 20
# generations), PARITY_THREADS the threads of both (default all CPUs; 1
# is the steadier measure on a shared machine), PARITY_HF_BATCH lm-eval's
# batch sizes (default 8; e.g. 1,8 adds lm-eval's own default, 1). Needs make parity's venv
# (build/parity/venv): make bench uses no PyPI, so without it this part is
# skipped, saying so.
#
# usage: scripts/parity/bench.sh [LMEVAL]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
LMEVAL=$(realpath "${1:-./lmeval}")
PY=build/parity/venv/bin/python
if [ ! -f build/parity/venv/.stamp ]; then
	echo
	echo "lm-eval HF side-by-side: skipped (no build/parity/venv; run make parity once, which needs PyPI)"
	exit 0
fi
eval "$(make -s env)"
random=build/parity/models/random/random-768x12-f16.gguf
mkdir -p "$(dirname "$random")"
go run ./cmd/lmeval-bench -write-model "$random"
export NLTK_DATA=$ROOT/build/parity/nltk_data
# Everything is local: no Hub lookups (and no retries when it is unreachable).
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRANSFORMERS_OFFLINE=1
"$PY" scripts/parity/punkt.py "$(go list -m -f '{{.Dir}}' github.com/neurosnap/sentences)/data/english.json" "$NLTK_DATA"
tasks_dir=../shared/lm-eval/lm_eval/tasks
[ -d "$tasks_dir" ] || tasks_dir=$("$PY" -c 'import lm_eval, os; print(os.path.join(os.path.dirname(lm_eval.__file__), "tasks"))')
echo
echo "lm-eval HF side-by-side ($(cat build/parity/venv/lm-eval-source)):"
"$PY" scripts/parity/parity.py --speed "${PARITY_SPEED:-100,20}" ${PARITY_THREADS:+--threads "$PARITY_THREADS"} ${PARITY_HF_BATCH:+--hf_batch_size "$PARITY_HF_BATCH"} --lmeval "$LMEVAL" --out build/parity/bench --tasks_dir "$tasks_dir" \
	--model "random-f16:f16=$random" --note "Machine load average at start: $(cut -d' ' -f1-3 /proc/loadavg)."
