"""Shared library of the ports' vector generators (ports/*/testdata/gen_vectors.py).

A generator runs lm-eval's real helper functions on chosen inputs and writes
what they return as vectors for ports/internal/vectest (Go) to replay:

    PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
      /usr/bin/python3 ports/<dir>/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks

pystubs/ (first on sys.path, then fidelity/pystubs for rouge_score) stands in for
packages the reference Python lacks.
"""
import copy
import gzip
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "pystubs"))
# rouge_score: the stand-in fidelity/gen.py uses too
sys.path.insert(1, os.path.join(HERE, "..", "..", "..", "fidelity", "pystubs"))

import lmevalref_compat  # noqa: E402,F401  (lm-eval-runner: typing shims)
import numpy as np  # noqa: E402

TASKS = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "/work/shared/lm-eval/lm_eval/tasks"
_modules = {}


def load(rel):
    """lm-eval's module lm_eval/tasks/<rel>, imported once."""
    if rel not in _modules:
        name = "lm_eval.tasks." + rel[:-3].replace("/", ".").replace("-", "_")
        spec = importlib.util.spec_from_file_location(name, os.path.join(TASKS, rel))
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        _modules[rel] = m
    return _modules[rel]


class DS(list):
    """The part of datasets.Dataset the helpers use: map and filter, each
    row handed over as a fresh dict (as datasets does)."""

    def map(self, fn, **kwargs):
        out = DS()
        for d in self:
            r = fn(copy.deepcopy(d))
            nd = dict(d)
            nd.update(r)
            out.append(nd)
        return out

    def filter(self, fn, **kwargs):
        return DS(copy.deepcopy(d) for d in self if fn(copy.deepcopy(d)))

    def __len__(self):
        return list.__len__(self)


def plain(v):
    """JSON-able: tuples to lists, numpy scalars to Python numbers."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, np.ndarray):
        return [plain(x) for x in v.tolist()]
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    return v


class Vectors:
    def __init__(self):
        self.items = []

    def _add(self, rel, fn, kind, inp, call, tol=0.0, note=""):
        v = {"file": rel, "function": fn, "kind": kind, "input": plain(inp)}
        try:
            out = call()
        except Exception as e:  # noqa: BLE001  (the port must fail too)
            v["error"] = True
            v["output"] = type(e).__name__
        else:
            if kind == "process_docs":
                out = list(out)
                if out:
                    v["keys"] = list(out[0].keys())
            v["output"] = plain(out)
        if tol:
            v["tol"] = tol
        if note:
            v["note"] = note
        json.dumps(v, allow_nan=False)
        self.items.append(v)
        return v

    def doc(self, rel, fn, doc, **kw):
        f = getattr(load(rel), fn)
        return self._add(rel, fn, "doc", doc, lambda: f(copy.deepcopy(doc)), **kw)

    def process_docs(self, rel, fn, docs, **kw):
        f = getattr(load(rel), fn)
        return self._add(rel, fn, "process_docs", docs, lambda: f(DS(copy.deepcopy(docs))), **kw)

    def process_results(self, rel, fn, doc, results, ll=False, **kw):
        f = getattr(load(rel), fn)
        res = [tuple(r) for r in results] if ll else results
        return self._add(rel, fn, "process_results", {"doc": doc, "results": results, "ll": ll},
                         lambda: f(copy.deepcopy(doc), copy.deepcopy(res)), **kw)

    def metric(self, rel, fn, references, predictions, kwargs=None, **kw):
        """A metric function as lm-eval calls it (api/task.py): with
        references= and predictions= keywords, else (TypeError) with the
        one list [gold, result]."""
        f = getattr(load(rel), fn)
        kwargs = kwargs or {}

        def call():
            try:
                return f(references=list(references), predictions=list(predictions), **kwargs)
            except TypeError:
                return f([references[0], predictions[0]])

        return self._add(rel, fn, "metric", {"references": references, "predictions": predictions, "kwargs": kwargs},
                         call, **kw)

    def aggregation(self, rel, fn, items, seed=None, pairs=False, **kw):
        """An aggregation over per-document values; seed: numpy's global
        seed first (lm-eval's np.random.seed at the start of a run)."""
        f = getattr(load(rel), fn)

        def call():
            if seed is not None:
                np.random.seed(seed)
            return f([tuple(i) if isinstance(i, list) else i for i in copy.deepcopy(items)])

        v = self._add(rel, fn, "aggregation", items, call, **kw)
        if seed is not None:
            v["seed"] = seed
        if pairs:
            v["pairs"] = True
        return v

    def samples(self, rel, fn, **kw):
        f = getattr(load(rel), fn)
        return self._add(rel, fn, "samples", None, f, **kw)

    def write(self, path):
        """Writes the recorded vectors in vectest's one format (vecformat.py)."""
        import vecformat
        recs = json.loads(json.dumps(self.items, ensure_ascii=False))
        out = [c for v in recs for c in vecformat.convert("vectors", v)]
        vecformat.write(path, out)
        print(f"{path}: {len(out)} vectors", file=sys.stderr)
