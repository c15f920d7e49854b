#!/bin/sh
# End-to-end check of ifeval and leaderboard_ifeval against the real
# lm-eval on local documents in the dataset's schema (docs.jsonl: key,
# prompt, instruction_id_list, kwargs with every argument, None included):
#  1. lm-eval's requests (prompts and generation kwargs) are dumped;
#  2. lmeval runs the same tasks on a GGUF model and logs its samples;
#  3. lm-eval replays lmeval's answers through its own process_results and
#     aggregations;
#  4. compare.py checks prompts, generation kwargs, per-document metrics and
#     the aggregated numbers.
# Usage (from the repository root, after building ./lmeval):
#   sh ports/ifeval/testdata/e2e/e2e.sh MODEL.gguf [WORKDIR]
# GEN_KWARGS=max_gen_toks=48 (passed to both sides as --gen_kwargs) makes
# it quick: the tasks' own max_gen_toks is 1280.
set -eu
MODEL=${1:?usage: e2e.sh MODEL.gguf [WORKDIR]}
HERE=$(cd "$(dirname "$0")" && pwd)
W=${2:-$(mktemp -d)}
SHARED=${SHARED:-$HERE/../../../../../shared}
TASKS=$SHARED/lm-eval/lm_eval/tasks
R=$SHARED/lm-eval-runner
mkdir -p "$W/tasks"
for t in ifeval leaderboard_ifeval; do
  case $t in ifeval) src=$TASKS/ifeval/ifeval.yaml ;; *) src=$TASKS/leaderboard/ifeval/ifeval.yaml ;; esac
  cat > "$W/tasks/${t}_local.yaml" <<YAML
include: $src
task: ${t}_local
dataset_path: json
dataset_name: null
dataset_kwargs:
  data_files:
    train: $HERE/docs.jsonl
YAML
done
PY="env PYTHONPATH=$R/stubs:${LMEVALREF_SRC:-/tmp/lmevalref/src}:$HERE/.. /usr/bin/python3"
names=ifeval_local,leaderboard_ifeval_local
GK=${GEN_KWARGS:+--gen_kwargs $GEN_KWARGS}
RUNREF="$PY $HERE/run_ref_patched.py $R/run_ref.py"
$RUNREF --tasks $names --include_path "$W/tasks" $GK --dump-requests "$W/ref_requests.jsonl" --output "$W/ref_dump.json" --no-table >"$W/ref_dump.log" 2>&1
./lmeval run --model_args pretrained="$MODEL" --tasks $names $GK --include_path "$W/tasks" --log_samples --output_path "$W/lmeval" >"$W/lmeval.log" 2>&1
$RUNREF --tasks $names --include_path "$W/tasks" $GK --replay "$W/lmeval" --output "$W/ref_replay.json" --log-samples --no-table >"$W/ref_replay.log" 2>&1
/usr/bin/python3 "$HERE/compare.py" "$W"
