#!/usr/bin/env bash
# replay.sh LMEVAL GGUF: metrics fidelity of the ported tasks. lmeval runs
# each case of cases.json (the wrapper YAML over data/, as gen_requests.py
# writes it) on the model with --log_samples; the real lm-eval recomputes
# the metrics from those samples (lm-eval-runner's run_ref.py --replay,
# datasets' map cache emulated by dscache/); compare_results.py compares.
# The gpqa tasks draw from Python's module random, so each runs alone (in a
# run of several, lm-eval's shuffles depend on its task construction
# order). Needs ../shared (lm-eval, lm-eval-runner) and /tmp/lmevalref.
set -euo pipefail
LMEVAL=$(realpath "$1")
GGUF=$(realpath "$2")
cd "$(dirname "$0")"
HERE=$(pwd)
SHARED=$(realpath ../../../shared)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
python3 - "$HERE" "$SHARED/lm-eval/lm_eval/tasks" "$W" <<'PY'
import json, sys
here, tasks, w = sys.argv[1:]
for c in json.load(open(f"{here}/cases.json")):
    lines = [f"include: {tasks}/{c['include']}", f"task: {c['task']}", "dataset_path: json",
             "dataset_name: null", "dataset_kwargs:", "  data_files:"]
    lines += [f"    {s}: {json.dumps(here + '/data/' + f)}" for s, f in c["data_files"].items()]
    open(f"{w}/{c['task']}.yaml", "w").write("\n".join(lines) + "\n")
PY
export PYTHONPATH=$HERE/dscache:$SHARED/lm-eval-runner/stubs:/tmp/lmevalref/src
for t in $(python3 -c 'import json,sys; print(" ".join(c["task"] for c in json.load(open("cases.json"))))'); do
	"$LMEVAL" run --model llama --model_args "pretrained=$GGUF" --include_path "$W" --tasks "$t" \
		--output_path "$W/out_$t" --log_samples --gen_kwargs max_gen_toks=32 --no_progress >/dev/null 2>&1
	/usr/bin/python3 "$SHARED/lm-eval-runner/run_ref.py" --tasks "$t" --include_path "$W" --replay "$W/out_$t" \
		--gen_kwargs max_gen_toks=32 --output "$W/ref_$t.json" --no-table >"$W/log_$t" 2>&1
	echo "$t: $(python3 compare_results.py "$W/ref_$t.json" "$W/out_$t" | tail -1)"
done
