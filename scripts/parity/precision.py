"""How far each float32 computation is from a float64 one, request by request.

usage (in the parity venv):
  python precision.py REF_DIR NAME=DIR [NAME=DIR ...]

REF_DIR holds lm-eval's logged samples of a float64 run (hfrun.py --dtype
float64: <run>/samples_<task>.jsonl); each NAME=DIR another run of the same
tasks: hfrun.py's layout, or lmeval's (samples_<task>_<date>.jsonl anywhere
under DIR). For every log-likelihood request (and every rolling document's
sum) it prints the distribution of |value - float64 value| per run and
between the runs: when lmeval's distance from the float64 computation is
that of transformers' own float32 run, what separates the two programs is
float32 rounding, not a different computation (docs/parity.md, "Gemma 3
270M: the cause").
"""
import glob
import json
import os
import re
import statistics
import sys


def samples(d):
    """{(task, doc_id, request index): (kind, value)} of a run."""
    out = {}
    for f in sorted(glob.glob(os.path.join(d, "**", "samples_*.jsonl"), recursive=True)):
        task = re.sub(r"^samples_(.*?)(_\d{4}-\d\d-\d\dT[\d.\-]+)?\.jsonl$", r"\1", os.path.basename(f))
        seen = set()
        for line in open(f, encoding="utf-8"):
            if not line.strip():
                continue
            s = json.loads(line)
            if s["doc_id"] in seen:
                continue  # one entry per filter: the same requests
            seen.add(s["doc_id"])
            for i, r in enumerate(s["resps"]):
                v = r[0]
                if isinstance(v, list):
                    out[(task, s["doc_id"], i)] = ("loglikelihood", float(v[0]))
                else:  # a rolling document's sum
                    out[(task, s["doc_id"], i)] = ("loglikelihood_rolling", float(v))
    return out


def dist(ds):
    if not ds:
        return "–"
    ds = sorted(ds)
    p90 = ds[min(len(ds) - 1, int(0.9 * len(ds)))]
    return f"max {ds[-1]:.3g}, median {statistics.median(ds):.3g}, p90 {p90:.3g} ({len(ds)} requests)"


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    ref = samples(sys.argv[1])
    runs = []
    for spec in sys.argv[2:]:
        name, d = spec.split("=", 1)
        runs.append((name, samples(d)))
    keys = sorted(k for k in ref if all(k in r for _, r in runs))
    if not keys:
        raise SystemExit("precision: no request in common")
    for kind in ("loglikelihood", "loglikelihood_rolling"):
        ks = [k for k in keys if ref[k][0] == kind]
        if not ks:
            continue
        print(f"{kind}:")
        for name, r in runs:
            print(f"  |{name} - float64|: {dist([abs(r[k][1] - ref[k][1]) for k in ks])}")
        for i in range(len(runs)):
            for j in range(i + 1, len(runs)):
                (a, ra), (b, rb) = runs[i], runs[j]
                print(f"  |{a} - {b}|: {dist([abs(ra[k][1] - rb[k][1]) for k in ks])}")


if __name__ == "__main__":
    main()
