#!/usr/bin/env bash
# Measures sharding on this machine (docs/scale.md, "Measured"): one run in
# one piece, then the same run as 2 and as 4 shards, one process after
# another (so they do not share the cores), each with one thread, then
# the merges. Prints, per run and per shard, the CPU time (user + system:
# the machine may be shared, which inflates wall times only), the wall
# time, the engine's decoded tokens and the split's cost estimate; the
# totals against the unsharded run; and the largest shard against the
# mean.
#
#   MODEL=model.gguf scripts/scale/measure.sh [OUT]    (default build/scale-measure)
#
# SCALE (default 4) multiplies the documents of the test tasks
# (harness/testdata/shard: multiple choice with documents of 50x
# different lengths, few-shot generation, sampled repeats, perplexity).
set -euo pipefail
cd "$(dirname "$0")/../.."
MODEL=${MODEL:?set MODEL to a GGUF file}
SCALE=${SCALE:-4}
OUT=${1:-build/scale-measure}
LMEVAL=${LMEVAL:-./lmeval}
rm -rf "$OUT"
mkdir -p "$OUT/tasks"
OUT=$(cd "$OUT" && pwd)
go run harness/testdata/shard/gen.go -scale "$SCALE" -out "$OUT/data" >/dev/null
for f in harness/testdata/shard/tasks/*.yaml; do
	sed "s#testdata/shard/data/#$OUT/data/#" "$f" >"$OUT/tasks/$(basename "$f")"
done
cat >"$OUT/eval.yaml" <<EOF
model_args: {pretrained: $MODEL, threads: "1"}
tasks: [shard_group, shard_gen, shard_gen_sampled, shard_ppl]
include_path: [$OUT/tasks]
bootstrap_iters: 1000
log_samples: true
EOF

# run NAME ARGS...: lmeval with ARGS, its CPU and wall time in NAME.time.
run() {
	local name=$1
	shift
	/usr/bin/time -f '{"user": %U, "sys": %S, "wall": %e}' -o "$OUT/$name.time" \
		"$LMEVAL" "$@" >"$OUT/$name.out" 2>"$OUT/$name.log"
}
run whole run --config "$OUT/eval.yaml" --output_path "$OUT/whole" --no_progress
for n in 2 4; do
	for ((i = 0; i < n; i++)); do
		run "shards$n-$i" run --config "$OUT/eval.yaml" --output_path "$OUT/shards$n" --no_progress --shard "$i/$n"
	done
	run "merge$n" merge "$OUT/shards$n"
done

python3 - "$OUT" <<'EOF'
import glob, json, os, sys
out = sys.argv[1]
def tm(name):
    t = json.load(open(f"{out}/{name}.time"))
    return t["user"] + t["sys"], t["wall"]
def results(d):
    return json.load(open(glob.glob(f"{d}/**/results_*.json", recursive=True)[0]))
whole_cpu, whole_wall = tm("whole")
whole = results(f"{out}/whole")
print("| run | CPU s (user+sys) | wall s | tokens decoded | prompt tokens | requests | cost (bytes) |")
print("|---|---:|---:|---:|---:|---:|---:|")
print(f"| unsharded | {whole_cpu:.1f} | {whole_wall:.1f} | {whole['lmeval']['tokens_decoded']} | {whole['lmeval']['prompt_tokens']} | | |")
summary = []
for n in (2, 4):
    cpus, toks = [], []
    for i in range(n):
        cpu, wall = tm(f"shards{n}-{i}")
        h = json.loads(open(glob.glob(f"{out}/shards{n}/**/shard-*{i}-of-{n}.jsonl", recursive=True)[0]).readline())
        w = h["info"]["Work"]
        cpus.append(cpu)
        toks.append(w["TokensDecoded"])
        print(f"| {n} shards: {i} | {cpu:.1f} | {wall:.1f} | {w['TokensDecoded']} | {w['TokensRequested']} | {h['requests']} | {h['cost']} |")
    mcpu, mwall = tm(f"merge{n}")
    merged = results(f"{out}/shards{n}")
    # The answers moved by the float noise of other batch layouts: the
    # largest relative difference of a metric.
    diff = 0.0
    for task, e in whole["results"].items():
        for k, v in e.items():
            w = merged["results"][task].get(k)
            if isinstance(v, float) and isinstance(w, float) and v != w:
                diff = max(diff, abs(v - w) / max(abs(v), 1e-300))
    print(f"| {n} shards: merge | {mcpu:.1f} | {mwall:.1f} | | | | |")
    mean_cpu, mean_tok = sum(cpus) / n, sum(toks) / n
    summary.append(f"{n} shards: total CPU {sum(cpus):.1f} s = {sum(cpus)/whole_cpu:.3f} x unsharded, "
                   f"tokens decoded {sum(toks)} = {sum(toks)/whole['lmeval']['tokens_decoded']:.3f} x; "
                   f"largest shard {max(cpus)/mean_cpu:.3f} x the mean CPU, {max(toks)/mean_tok:.3f} x the mean tokens; "
                   f"merged metrics within {diff:.1e} (relative) of the unsharded run's")
print()
for s in summary:
    print("-", s)
EOF
