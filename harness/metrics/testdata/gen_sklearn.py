"""Vectors for sklearn_test.go: scikit-learn's classification metrics and
numpy's sums, as Hugging Face evaluate's metrics call them.

Run with Debian's python3 (python3-sklearn, python3-numpy):

  /usr/bin/python3 harness/metrics/testdata/gen_sklearn.py \
    > harness/metrics/testdata/sklearn_vectors.json

evaluate itself is not in Debian. Its metric scripts (f1, precision,
recall, accuracy, matthews_correlation) cast references and predictions
to datasets.Value("int32") (Python's int() of each value) and call
sklearn with the compute kwargs, returning {name: float(score)} (the
array for several scores); `evaluate_compute` below does that and nothing
else, so the "evaluate" cases are sklearn's numbers on int()-cast inputs.

Debian's scikit-learn is 1.2.1. Since 1.3 sklearn computes the F-score as
2*tp / (true + pred) rather than 2*P*R / (P + R); the two agree up to
rounding (the Go side follows 1.3+, and sklearn_test.go compares F-scores
to 2 ulps), and differ in meaning only for zero_division=1 with an
undefined precision or recall (evaluate's f1 takes no zero_division) and
for average="weighted" when no sample has a selected label (1.2.1 returns
early with zero_division's value; 1.3+ averages unweighted). Those cases
are not generated.
"""

import json
import math
import random
import sys
import warnings

import numpy as np
import sklearn
from sklearn.metrics import (
    accuracy_score,
    f1_score,
    matthews_corrcoef,
    precision_score,
    recall_score,
)


def f(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    return x


def evaluate_compute(name, references, predictions, **kwargs):
    """What evaluate.load(name).compute(...) returns for these metrics."""
    refs = [int(x) for x in references]
    preds = [int(x) for x in predictions]
    if name == "accuracy":
        return {"accuracy": float(accuracy_score(refs, preds, **kwargs))}
    if name == "matthews_correlation":
        return {"matthews_correlation": float(matthews_corrcoef(refs, preds, **kwargs))}
    fn = {"f1": f1_score, "precision": precision_score, "recall": recall_score}[name]
    score = fn(refs, preds, **kwargs)
    return {name: score if getattr(score, "size", 1) > 1 else float(score)}


def main():
    rng = random.Random(20261202)
    cases = []

    def add(kind, y_true, y_pred, kwargs, fn):
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            try:
                out = fn()
                err = None
            except ValueError as e:
                out, err = None, str(e)
        warned = sorted({str(w.message) for w in ws if w.category.__name__ == "UndefinedMetricWarning"})
        case = {"kind": kind, "y_true": y_true, "y_pred": y_pred, "kwargs": kwargs}
        if err is not None:
            case["error"] = err
        elif isinstance(out, np.ndarray):
            case["want"] = [f(x) for x in out]
        else:
            case["want"] = f(out)
        if warned:
            case["warnings"] = warned
        cases.append(case)

    def arrays(n, labels, p_right=0.5):
        yt = [rng.choice(labels) for _ in range(n)]
        yp = [t if rng.random() < p_right else rng.choice(labels) for t in yt]
        return yt, yp

    label_sets = [[0, 1], [1, 2], [0, 2], [0], [1], [-1, 0, 1, 2], [0, 1, 2, 3], list(range(12)), [-100, 0, 1, 2]]
    for labels in label_sets:
        for n in (1, 2, 5, 30, 200):
            yt, yp = arrays(n, labels, rng.choice([0.2, 0.6, 0.9]))
            for average in ("binary", "micro", "macro", "weighted", None):
                for metric, fn in (("f1", f1_score), ("precision", precision_score), ("recall", recall_score)):
                    kw = {"average": average}
                    add(metric, yt, yp, kw, lambda: fn(yt, yp, **kw))
            for pos in (0, 2):
                kw = {"average": "binary", "pos_label": pos}
                add("f1", yt, yp, kw, lambda: f1_score(yt, yp, **kw))
            kw = {"average": "macro", "pos_label": 3}
            add("f1", yt, yp, kw, lambda: f1_score(yt, yp, **kw))
            for zd in (0, 1):
                for metric, fn in (("precision", precision_score), ("recall", recall_score)):
                    kw = {"average": rng.choice(["binary", "macro", "micro", None]), "zero_division": zd}
                    add(metric, yt, yp, kw, lambda: fn(yt, yp, **kw))
            present = sorted(set(yt) | set(yp))
            sub = present[: max(1, len(present) // 2)] + [99]
            if any(t in sub for t in yt):
                for average in ("micro", "macro", "weighted", None):
                    kw = {"average": average, "labels": sub}
                    add("f1", yt, yp, kw, lambda: f1_score(yt, yp, **kw))
                    add("precision", yt, yp, kw, lambda: precision_score(yt, yp, **kw))
            w = [round(rng.uniform(0.1, 3), 3) for _ in yt]
            for average in ("binary", "macro", "weighted"):
                kw = {"average": average, "sample_weight": w}
                add("f1", yt, yp, kw, lambda: f1_score(yt, yp, **kw))
            add("accuracy", yt, yp, {}, lambda: accuracy_score(yt, yp))
            add("accuracy", yt, yp, {"normalize": False}, lambda: accuracy_score(yt, yp, normalize=False))
            add("accuracy", yt, yp, {"sample_weight": w}, lambda: accuracy_score(yt, yp, sample_weight=w))
            add("matthews_correlation", yt, yp, {}, lambda: matthews_corrcoef(yt, yp))

    # evaluate's compute on one document, as lm-eval calls it per document
    # of a generate_until task (references=[gold], predictions=[answer]),
    # answers as filters leave them (ints, label text, bools).
    evaluate_cases = []
    for gold, pred in [(0, 0), (2, 2), (2, -1), (1, 0), (0, 1), ("3", 3), (" 1 ", "1"), (True, 1), (2.9, 2), ("1_0", 10)]:
        for name, kw in [("f1", {"average": "micro"}), ("f1", {}), ("f1", {"average": "macro"}),
                         ("f1", {"average": "weighted"}), ("precision", {}), ("recall", {"zero_division": 1}),
                         ("accuracy", {}), ("matthews_correlation", {})]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    out = evaluate_compute(name, [gold], [pred], **kw)
                    ev = {"want": {k: f(v) for k, v in out.items()}}
                except ValueError as e:
                    ev = {"error": str(e)}
            evaluate_cases.append({"metric": name, "references": [gold], "predictions": [pred], "kwargs": kw, **ev})

    # numpy's float sums (pairwise, first element apart), for npSum.
    sums = []
    for n in list(range(1, 20)) + [31, 64, 127, 128, 129, 130, 200, 257, 1000, 1001]:
        xs = [rng.uniform(-1, 1) * 10 ** rng.randint(-8, 8) for _ in range(n)]
        sums.append({"xs": xs, "sum": float(np.sum(np.array(xs))), "mean": float(np.mean(np.array(xs)))})

    json.dump({"sklearn": sklearn.__version__, "numpy": np.__version__, "cases": cases,
               "evaluate": evaluate_cases, "sums": sums}, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
