#!/usr/bin/python3
"""Compares lmeval's ifeval run with the real lm-eval (see e2e.sh): the
requests (prompt and generation kwargs) with lm-eval's dump, each
document's four metrics and the aggregated results with lm-eval's replay of
lmeval's own answers. Exits 1 on any difference.

    compare.py WORKDIR
"""
import glob
import json
import os
import sys

w = sys.argv[1]
bad = 0


def fail(msg):
    global bad
    bad += 1
    if bad <= 20:
        print("DIFF", msg)


ref_reqs = {}
with open(os.path.join(w, "ref_requests.jsonl"), encoding="utf-8") as f:
    for line in f:
        r = json.loads(line)
        ref_reqs[(r["task"], int(r["doc_id"]))] = r["arguments"]

replay = json.load(open(os.path.join(w, "ref_replay.json"), encoding="utf-8"))
(results_path,) = glob.glob(os.path.join(w, "lmeval", "*", "results_*.json"))
ours = json.load(open(results_path, encoding="utf-8"))
METRICS = ["prompt_level_strict_acc", "inst_level_strict_acc", "prompt_level_loose_acc", "inst_level_loose_acc"]
n_docs = 0
for task in ("ifeval_local", "leaderboard_ifeval_local"):
    (sp,) = glob.glob(os.path.join(w, "lmeval", "*", "samples_%s_*.jsonl" % task))
    ref_samples = {int(s["doc_id"]): s for s in replay["samples"][task]}
    with open(sp, encoding="utf-8") as f:
        for line in f:
            s = json.loads(line)
            d = int(s["doc_id"])
            n_docs += 1
            args = s["arguments"]["gen_args_0"]
            want = ref_reqs[(task, d)]
            if args["arg_0"] != want[0]:
                fail("%s doc %d prompt: %r != lm-eval %r" % (task, d, args["arg_0"], want[0]))
            if args["arg_1"] != want[1]:
                fail("%s doc %d generation kwargs: %r != lm-eval %r" % (task, d, args["arg_1"], want[1]))
            rs = ref_samples[d]
            for m in METRICS:
                if str(s[m]) != str(rs[m]):
                    fail("%s doc %d %s: %s != lm-eval %s" % (task, d, m, s[m], rs[m]))
    for m in METRICS:
        for suffix in ("", "_stderr"):
            k = "%s%s,none" % (m, suffix)
            a, b = ours["results"][task].get(k), replay["results"][task].get(k)
            if a != b:
                fail("%s %s: %r != lm-eval %r" % (task, k, a, b))
    print(task, {m: ours["results"][task]["%s,none" % m] for m in METRICS})
print("%d documents compared, %d differences" % (n_docs, bad))
sys.exit(1 if bad else 0)
