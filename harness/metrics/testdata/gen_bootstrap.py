"""Bootstrap standard errors from lm-eval's own code, for bootstrap_test.go.

Run from the repository root with lm-eval importable (see
../shared/lm-eval-runner/README.md):

  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 harness/metrics/testdata/gen_bootstrap.py \
    > harness/metrics/testdata/bootstrap_vectors.json

Each case is one metric's per-document values and the stderr lm-eval's
stderr_for_metric(aggregation, bootstrap_iters) returns for them (it calls
bootstrap_stderr: chunk i of min(1000, iters) resamples drawn by
random.Random(i).choices, then sample_stddev of every resample's statistic).
DISABLE_MULTIPROC picks lm-eval's single-process loop, which draws the same
resamples in the same order as its multiprocessing imap (checked below for
one case). NaN values (nanmean) are written as null.
"""

import json
import math
import os
import random
import sys

os.environ["DISABLE_MULTIPROC"] = "1"
import lm_eval.api.metrics as M  # noqa: E402


def stderr(agg, items, iters):
    fn = M.stderr_for_metric(agg, bootstrap_iters=iters)
    return fn(items)


def main():
    rng = random.Random(20261201)
    cases = []

    def add(name, aggname, agg, items, iters, pairs=False):
        with open(os.devnull, "w") as null:  # bootstrap_stderr prints
            old = sys.stdout
            sys.stdout = null
            try:
                want = stderr(agg, items, iters)
            finally:
                sys.stdout = old
        enc = [list(x) for x in items] if pairs else [None if (isinstance(x, float) and math.isnan(x)) else x for x in items]
        cases.append({"name": name, "aggregation": aggname, "iters": iters, "items": enc, "want": float(want)})

    # perplexity over 15 log-likelihoods of a tiny model (sums of ~-70):
    # the case from issue 14, at lm-eval's default 100000 resamples.
    ll15 = [-rng.uniform(20, 120) for _ in range(15)]
    add("perplexity-15-default-iters", "perplexity", M.perplexity, ll15, 100000)
    add("perplexity-40", "perplexity", M.perplexity, [-rng.uniform(0.5, 4) for _ in range(40)], 5000)
    # iters not a multiple of 1000: only whole chunks run; below 1000 one chunk.
    add("perplexity-partial-chunk", "perplexity", M.perplexity, [-rng.uniform(0.5, 4) for _ in range(7)], 2500)
    add("perplexity-one-small-chunk", "perplexity", M.perplexity, [-rng.uniform(0.5, 4) for _ in range(9)], 37)
    add("median-odd", "median", M.median, [round(rng.uniform(0, 10), 3) for _ in range(21)], 3000)
    add("median-even-ties", "median", M.median, [float(rng.randint(0, 5)) for _ in range(30)], 3000)
    gold = [rng.randint(0, 1) for _ in range(50)]
    pred = [g if rng.random() < 0.7 else 1 - g for g in gold]
    pairs = list(zip(gold, pred))
    add("f1-50", "f1", M.f1_score, pairs, 2000, pairs=True)
    add("mcc-50", "matthews_corrcoef", M.matthews_corrcoef, pairs, 2000, pairs=True)
    gold3 = [rng.randint(0, 2) for _ in range(40)]
    pred3 = [g if rng.random() < 0.6 else rng.randint(0, 2) for g in gold3]
    add("mcc-3-classes", "matthews_corrcoef", M.matthews_corrcoef, list(zip(gold3, pred3)), 1000, pairs=True)
    nm = [float("nan") if rng.random() < 0.2 else rng.uniform(0, 1) for _ in range(25)]
    add("nanmean-25", "nanmean", M.nanmean, nm, 2000)

    # The multiprocessing path draws the same resamples in the same order.
    del os.environ["DISABLE_MULTIPROC"]
    with open(os.devnull, "w") as null:
        old = sys.stdout
        sys.stdout = null
        try:
            mp = M.bootstrap_stderr(M.perplexity, ll15, iters=3000)
        finally:
            sys.stdout = old
    os.environ["DISABLE_MULTIPROC"] = "1"
    sys.stdout, old = open(os.devnull, "w"), sys.stdout
    try:
        nomp = M.bootstrap_stderr(M.perplexity, ll15, iters=3000)
    finally:
        sys.stdout = old
    assert mp == nomp, (mp, nomp)

    # Groups pool their subtasks' stderrs (lm-eval's pooled_sample_stderr).
    pooled = []
    for k in (2, 3, 7):
        ses = [rng.uniform(0.001, 0.05) for _ in range(k)]
        sizes = [rng.randint(2, 3000) for _ in range(k)]
        pooled.append({"stderrs": ses, "sizes": sizes, "want": float(M.pooled_sample_stderr(ses, sizes))})

    json.dump({"generator": "harness/metrics/testdata/gen_bootstrap.py", "cases": cases, "pooled": pooled}, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
