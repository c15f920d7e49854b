"""Leaderboard GPQA's choice order under the real `datasets`, alone and in the group.

usage (in make parity's venv, from the repository root):
  build/parity/venv/bin/python scripts/parity/gpqa.py [OUT.json]

gpqa's process_docs shuffles each document's four choices with Python's
global `random` inside `Dataset.map`. With the real `datasets`, map's
result is cached on disk under a fingerprint of the data and the
function, so whether the shuffle draws at all depends on the cache:
lm-eval seeds `random` (0) at the start of simple_evaluate, then builds
every task; a task's shuffle draws from wherever the tasks built before it
left the generator, and a map answered from the cache draws nothing. This
script runs the real lm-eval (a model of constant answers, --limit 2) over the
leaderboard's local documents (fidelity/leaderboard/data, the Hub names
answered from those files as fidelity/leaderboard/gen.py does) with a
fresh datasets cache each time:

  alone   --tasks leaderboard_gpqa_diamond,leaderboard_gpqa_main,leaderboard_gpqa_extended
  group   --tasks leaderboard
  warm    the group again over the cache the first group run left

and writes each run's choice order for every gpqa document (the doc's
choice1..choice4 and answer) and how many times random.shuffle ran
(fidelity/leaderboard/gpqa_order.json, checked by TestLeaderboardGPQAOrder).
"""
import json
import os
import random
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "fidelity", "leaderboard", "data")
GPQA = ["leaderboard_gpqa_diamond", "leaderboard_gpqa_extended", "leaderboard_gpqa_main"]


def const_lm():
    """A model with constant answers (lm-eval's dummy model asks the Hub for
    a tokenizer): only the documents matter here."""
    from lm_eval.api.model import LM

    class ConstLM(LM):
        def loglikelihood(self, requests, disable_tqdm=False):
            return [(-1.0, False) for _ in requests]

        def loglikelihood_rolling(self, requests, disable_tqdm=False):
            return [-1.0 for _ in requests]

        def generate_until(self, requests, disable_tqdm=False):
            return ["" for _ in requests]

    return ConstLM()


def run(tasks, cache):
    os.environ["HF_DATASETS_CACHE"] = cache
    import datasets
    import lm_eval

    manifest = json.load(open(os.path.join(DATA, "manifest.json")))
    orig = getattr(datasets.load_dataset, "__wrapped_orig__", datasets.load_dataset)

    def load_dataset(path=None, name=None, *args, **kwargs):
        if path in manifest:
            files = manifest[path][name or "default"]
            return orig("json", data_files={s: os.path.join(DATA, f) for s, f in files.items()},
                        cache_dir=cache)
        return orig(path, name, *args, **kwargs)

    load_dataset.__wrapped_orig__ = orig
    datasets.load_dataset = load_dataset
    calls = {"n": 0}
    shuffle = random.shuffle

    def counting_shuffle(x, *a, **k):
        calls["n"] += 1
        return shuffle(x, *a, **k)

    random.shuffle = counting_shuffle
    try:
        res = lm_eval.simple_evaluate(model=const_lm(), tasks=tasks, limit=2, log_samples=True)
    finally:
        random.shuffle = shuffle
    orders = {}
    for t in GPQA:
        orders[t] = [{"doc_id": s["doc_id"], "choices": [s["doc"][f"choice{i}"] for i in range(1, 5)],
                      "answer": s["doc"]["answer"]} for s in res["samples"].get(t, [])]
    return {"tasks": tasks, "shuffles": calls["n"], "datasets": datasets.__version__, "orders": orders}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "fidelity", "leaderboard", "gpqa_order.json")
    import datasets
    import lm_eval

    runs = {}
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as g:
        runs["alone"] = run(GPQA, a)
        runs["group"] = run(["leaderboard"], g)
        runs["warm"] = run(["leaderboard"], g)
    res = {"generated_by": "scripts/parity/gpqa.py (lm-eval %s, datasets %s)" % (lm_eval.__version__, datasets.__version__),
           "runs": runs}
    with open(out, "w") as f:
        json.dump(res, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for k, r in runs.items():
        first = {t: [o["answer"] for o in v] for t, v in r["orders"].items()}
        print(f"{k}: random.shuffle ran {r['shuffles']} times; answers {first}")


if __name__ == "__main__":
    main()
