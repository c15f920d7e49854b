#!/usr/bin/env python3
"""One-off conversion of the ports' committed vectors files from the five
earlier replayers' formats (ports/internal/{portvectors, vectortest,
vectors, vectest, vecreplay}) to vectest's one format (vectest.go's
package documentation), values unchanged: the same inputs and outputs,
written as vectest writes them ({"float": "nan"} for NaN and infinities,
errors by exception name). A directory's format is the replayer its test
imported. vectest.py's writers record with the same conversions
(convert()), so a generator run gives what this conversion gave.

  python3 ports/internal/vectest/convert_vectors.py [ports/<dir> ...]

It was run once, before the ports' tests moved to vectest (it reads the
format from the test's import; run again it would convert vectest's own
vectors a second time).
"""
import glob
import gzip
import json
import os
import re
import sys

FORMATS = ("portvectors", "vectortest", "vectors", "vectest", "vecreplay")


def has_float(v):
    if isinstance(v, float):
        return v != int(v) if v == v and abs(v) != float("inf") else True
    if isinstance(v, dict):
        if set(v) == {"float"}:
            return True
        return any(has_float(x) for x in v.values())
    if isinstance(v, list):
        return any(has_float(x) for x in v)
    return False


_SPECIAL = {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}


def specials(v):
    """vecreplay wrote NaN and infinities as the strings of lm-eval's logs."""
    if isinstance(v, str) and v in _SPECIAL:
        return {"float": _SPECIAL[v]}
    if isinstance(v, list):
        return [specials(x) for x in v]
    if isinstance(v, dict):
        return {k: specials(x) for k, x in v.items()}
    return v


def results_kind(rs):
    """How vecreplay's Results() read a list of answers."""
    kinds = set()
    for r in rs:
        if isinstance(r, list) and len(r) == 2 and isinstance(r[0], (int, float)) and not isinstance(r[0], bool) \
                and isinstance(r[1], bool):
            kinds.add("loglikelihood")
        elif isinstance(r, (int, float)) and not isinstance(r, bool):
            kinds.add("rolling")
        else:
            kinds.add("")
    if len(kinds) > 1:
        raise ValueError(f"mixed answers {rs!r}")
    return kinds.pop() if kinds else ""


def base(v, **kw):
    out = {"file": v["file"], "function": v["function"], "kind": v.get("kind", "doc"), "input": v.get("input"),
           "output": v.get("output")}
    out.update(kw)
    return out


def convert(fmt, v):
    """The vectors (a list) vectest gives one vector of format fmt."""
    if fmt == "portvectors":
        if "kind" not in v:  # Replay's {file, function, doc, output | error}
            if os.path.basename(v["file"]) != "utils.py":
                raise ValueError(f"{v['file']}: Replay looked up utils.{v['function']}")
            out = base(v, kind="doc", input=v["doc"])
            if v.get("error"):
                out.update(output=None, error=v["error"].split(":")[0], error_match=True)
            return [out]
        kind = {"metric": "doc_metric"}.get(v["kind"], v["kind"])
        out = base(v, kind=kind)
        if kind != "unavailable":
            out["pytypes"] = True
        if v.get("error"):
            out.update(output=None, error=v["error"].split(":")[0])
        if kind == "process_docs":
            out["seed"] = v.get("seed", 0)
            for k in ("columns", "keys"):
                if v.get(k) is not None:
                    out[k] = v[k]
        if v.get("env") is not None:
            out["env"] = v["env"]
        return [out]
    if fmt == "vectortest":
        kind = v["kind"]
        out = base(v)
        if kind == "process_results_loglikelihood":
            out.update(kind="process_results", results="loglikelihood")
        if kind == "filter":
            out["input"] = {"args": v.get("args") or {}, "resps": v["input"]["resps"], "docs": v["input"]["docs"]}
        if v.get("error"):
            out.update(output=None, error=v["error"])
        if kind == "process_docs":
            if v.get("seed") is not None:
                out["seed"] = v["seed"]
            if v.get("columns") is not None:
                out.update(columns=v["in_columns"], keys=v["columns"])
        return [out]
    if fmt == "vectors":
        kind = v["kind"]
        out = base(v)
        if v.get("error"):
            out.update(output=None, error=v["output"])
        if kind == "process_docs" and v.get("keys") is not None:
            out["columns"] = list(v["input"][0].keys()) if v["input"] else []
            out["keys"] = v["keys"]
        if kind == "process_results":
            out["input"] = {"doc": v["input"]["doc"], "results": v["input"]["results"]}
            if v["input"].get("ll"):
                out["results"] = "loglikelihood"
        if kind == "aggregation":
            out.update(kind="aggregate", input={"items": v["input"]})
            if v.get("seed") is not None:
                out["np_seed"] = v["seed"]
            if v.get("pairs"):
                out["items"] = "pairs"
        for k in ("tol", "note"):
            if v.get(k):
                out[k] = v[k]
        return [out]
    if fmt == "vectest":
        kind = v["kind"]
        outs = []
        if kind == "metric":
            calls = v["input"]
            if v.get("error"):
                if len(calls) != 1:
                    raise ValueError("a raising metric vector of several calls")
                outs = [base(v, input=calls[0], output=None, error=v["error"])]
            else:
                outs = [base(v, input=c, output=o) for c, o in zip(calls, v["output"], strict=True)]
        elif kind == "metric_agg":
            outs = [base(v, kind="aggregate", function=v["agg"],
                         input={"metric_fn": v["file"] + ":" + v["function"], "items": v["input"]})]
        elif kind in ("agg_pairs", "agg_likelihood"):
            outs = [base(v, kind="aggregate", input={"items": v["input"]},
                         items="pairs" if kind == "agg_pairs" else "likelihood")]
        else:
            outs = [base(v)]
            if v.get("results"):
                outs[0]["results"] = v["results"]
        for o in outs:
            if v.get("error"):
                o.update(output=None, error=v["error"])
            tol = v.get("tol") or 0
            if tol or has_float(o["output"]):
                o["tol"] = tol or 1e-12
        return outs
    if fmt == "vecreplay":
        kind = v["kind"]
        out = base(v, output=specials(v.get("output")))
        if v.get("error"):
            out.update(output=None, error="Exception")
        if kind == "process_results":
            r = results_kind(v["input"]["results"])
            if r:
                out["results"] = r
        if kind == "aggregate" and v["input"].get("process_results"):
            ks = {results_kind(it["results"]) for it in v["input"]["items"]}
            if len(ks) > 1:
                raise ValueError("mixed answers across items")
            r = ks.pop() if ks else ""
            if r:
                out["results"] = r
        if v.get("tol"):
            out["tol"] = v["tol"]
        return [out]
    raise ValueError(fmt)


def dumps(vectors):
    return json.dumps(vectors, ensure_ascii=False, indent=0, allow_nan=False) + "\n"


def write(path, vectors):
    data = dumps(vectors)
    if path.endswith(".gz"):
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
            f.write(data.encode("utf-8"))
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(data)


def read(path):
    data = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
    return json.loads(data)


def format_of(d):
    for t in glob.glob(os.path.join(d, "*_test.go")):
        s = open(t).read()
        for f in FORMATS:
            if re.search(r'"github.com/lmeval/lmeval/ports/internal/%s"' % f, s):
                return f
    return None


def main(dirs):
    for d in dirs:
        fmt = format_of(d)
        if fmt is None:
            continue
        for path in glob.glob(os.path.join(d, "testdata", "vectors.json*")):
            vs = read(path)
            if not isinstance(vs, list):
                continue
            out = [c for v in vs for c in convert(fmt, v)]
            write(path, out)
            print(f"{path}: {fmt}, {len(vs)} vectors -> {len(out)}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:] or sorted(glob.glob("ports/*")))
