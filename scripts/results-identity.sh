#!/usr/bin/env bash
# results-identity.sh: run a fixed set of tasks with stories260K and with the
# dummy model, and print one sha256 per results and samples file, with the
# fields that change between runs (dates, timings, paths of temporary
# directories) removed. Run it before and after a refactor that must not
# change behaviour (issue 12): the two outputs must be equal.
#
# usage: scripts/results-identity.sh [LMEVAL] [OUT_DIR]
#   LMEVAL   the lmeval binary (default ./lmeval)
#   OUT_DIR  where the runs are kept (default: a temporary directory)
#
# The tasks are fidelity cases (fidelity/testdata/*/cases.json) over their
# local documents in lm-eval's task tree (../shared/lm-eval), so the runs need
# neither the network nor Python: multiple choice with few-shot, rolling
# log-likelihoods, greedy generation with filters, and a group; and the
# built-in tasks over their fixture documents.
set -euo pipefail
LMEVAL=$(realpath "${1:-./lmeval}")
OUT=${2:-$(mktemp -d)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TASKS=$(cd "$ROOT/../shared/lm-eval/lm_eval/tasks" && pwd)
MODEL=$(realpath "$ROOT/../shared/models/stories260K.gguf")
mkdir -p "$OUT/yaml"
CASES="arc:fid_arc_easy_2shot hellaswag:fid_hellaswag truthfulqa:fid_truthfulqa_mc2 lambada:fid_lambada_openai gsm8k:fid_gsm8k bbh:fid_bbh_cot_zeroshot_boolean_expressions drop:fid_drop"
names=()
for c in $CASES; do
	fam=${c%%:*} task=${c#*:}
	jq -e --arg t "$task" 'map(select(.task == $t)) | length == 1' "$ROOT/fidelity/testdata/$fam/cases.json" >/dev/null ||
		{ echo "results-identity: no case $task in fidelity/testdata/$fam" >&2; exit 1; }
	jq -r --arg t "$task" --arg tasks "$TASKS" --arg data "$ROOT/fidelity/testdata/$fam/data" '
		.[] | select(.task == $t) |
		"include: \($tasks)/\(.include)\ntask: \(.task)\ndataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n" +
		([.data_files | to_entries[] | "    \(.key): \"\($data)/\(.value)\""] | join("\n")) + "\n" +
		(if .num_fewshot != null then "num_fewshot: \(.num_fewshot)\n" else "" end) + (.yaml // "")' \
		"$ROOT/fidelity/testdata/$fam/cases.json" >"$OUT/yaml/$task.yaml"
	names+=("$task")
done
# The built-in tasks (benchmarks/), each included from its YAML under a new
# name and read from its committed fixture documents (benchmarks/testdata).
BUILTIN="arc_easy:arc/arc_easy.yaml:arc_easy arc_challenge:arc/arc_challenge.yaml:arc_challenge
hellaswag:hellaswag/hellaswag.yaml:hellaswag lambada_openai:lambada/lambada_openai.yaml:lambada_openai
lambada_standard:lambada/lambada_standard.yaml:lambada_standard wikitext:wikitext/wikitext.yaml:wikitext
winogrande:winogrande/default.yaml:winogrande boolq:super_glue/boolq/default.yaml:boolq
openbookqa:openbookqa/openbookqa.yaml:openbookqa piqa:piqa/piqa.yaml:piqa sciq:sciq/sciq.yaml:sciq
truthfulqa_mc1:truthfulqa/truthfulqa_mc1.yaml:truthfulqa truthfulqa_mc2:truthfulqa/truthfulqa_mc2.yaml:truthfulqa
truthfulqa_gen:truthfulqa/truthfulqa_gen.yaml:truthfulqa_gen gsm8k:gsm8k/gsm8k.yaml:gsm8k
gsm8k_cot:gsm8k/gsm8k-cot.yaml:gsm8k gsm8k_cot_zeroshot:gsm8k/gsm8k-cot-zeroshot.yaml:gsm8k
gsm8k_cot_self_consistency:gsm8k/gsm8k-cot-self-consistency.yaml:gsm8k mmlu_anatomy:mmlu/default/mmlu_anatomy.yaml:mmlu/anatomy"
for b in $BUILTIN; do
	IFS=: read -r name yaml data <<<"$b"
	{
		printf 'include: %s\ntask: builtin_%s\ndataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n' "$ROOT/benchmarks/$yaml" "$name"
		for f in "$ROOT/benchmarks/testdata/$data"/*.jsonl; do printf '    %s: "%s"\n' "$(basename "$f" .jsonl)" "$f"; done
	} >"$OUT/yaml/builtin_$name.yaml"
	names+=("builtin_$name")
done
list=$(IFS=,; echo "${names[*]}")
run() { # name, then lmeval run arguments
	local name=$1; shift
	"$LMEVAL" run --include_path "$OUT/yaml" --tasks "$list" --limit 4 --seed 1234 \
		--gen_kwargs max_gen_toks=16 --log_samples --output_path "$OUT/$name" --no_progress "$@" \
		>"$OUT/$name.log" 2>&1 || { echo "results-identity: $name failed (see $OUT/$name.log)" >&2; exit 1; }
}
run stories --model llama --model_args "pretrained=$MODEL" --batch_size 4
run dummy --model dummy
# Per file: drop what differs from run to run, then hash.
find "$OUT/stories" "$OUT/dummy" -name '*.json*' -type f | sort | while read -r f; do
	rel=${f#"$OUT/"}
	rel=$(echo "$rel" | sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9.:-]+/DATE/g')
	sum=$(jq -S -c 'walk(if type == "object" then del(.date, .start_time, .end_time, .total_evaluation_time_seconds,
		.time, .elapsed, .wall_s, .seconds, .tokens_per_second, .load_seconds, .timings) else . end)' "$f" 2>/dev/null |
		sed "s#$OUT#OUT#g" | sha256sum | cut -c1-16)
	echo "$sum $rel"
done
