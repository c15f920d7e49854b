"""Helpers for the ports' reference-vector generators (testdata/gen_vectors.py).

A generator imports this module (sys.path gets ports/internal/vectest), loads
lm-eval's helper modules with load(), records calls with add() and writes
vectors.json with write(). Run it with lm-eval-runner's Python path:

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/<dir>/testdata/gen_vectors.py

The Go side is ports/internal/vectest (vectest.Run).
"""
import copy
import gzip
import importlib
import importlib.util
import json
import math
import os
import sys

import lmevalref_compat  # noqa: F401  (lm-eval-runner: typing shims lm_eval.tasks needs)

TASKS = os.environ.get("LMEVAL_TASKS", "/tmp/lmevalref/src/lm_eval/tasks")


def load(rel, package=True):
    """Imports lm_eval/tasks/<rel> as lm-eval does (lm_eval.tasks.<dir>.<mod>,
    so relative and absolute lm_eval.tasks imports work), or from its path."""
    if package:
        mod = "lm_eval.tasks." + rel[:-3].replace("/", ".")
        try:
            return importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if not str(e).startswith("No module named 'lm_eval.tasks"):
                raise
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_")[:-3], os.path.join(TASKS, rel))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


class DS(list):
    """The part of datasets.Dataset the helpers use."""

    def map(self, fn, **kw):
        out = DS()
        for d in self:
            nd = dict(d)
            r = fn(nd)
            if r is not None:
                nd.update(r)
            out.append(nd)
        return out

    def filter(self, fn, **kw):
        return DS(d for d in self if fn(d))

    def select(self, idx):
        return DS(self[i] for i in idx)

    @property
    def column_names(self):
        return list(self[0].keys()) if self else []


def py(v):
    """A Python value as lm-eval's samples file writes it (json.dumps with
    lm_eval.utils.handle_non_serializable), NaN and infinities as strings."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, float):  # np.float64 too
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return float(v)
    if isinstance(v, int):
        return int(v)
    if isinstance(v, (list, tuple)):
        return [py(e) for e in v]
    if isinstance(v, dict):
        return {str(k): py(e) for k, e in v.items()}
    if np is not None:
        if isinstance(v, (np.int64, np.int32)):
            return int(v)
        if isinstance(v, np.floating):
            return py(float(v))
    if isinstance(v, set):
        return [py(e) for e in v]
    return str(v)  # handle_non_serializable: np.bool_, arrays, ...


vectors = []


def add(file, function, kind, inp, out=None, error=False, tol=0):
    v = {"file": file, "function": function, "kind": kind, "input": jsonable(inp), "output": py(out)}
    if error:
        v["error"] = True
        v["output"] = None
    if tol:
        v["tol"] = tol
    vectors.append(v)


def jsonable(v):
    """Inputs: tuples as lists (answers [ll, is_greedy]), otherwise as is."""
    if isinstance(v, (list, tuple)):
        return [jsonable(e) for e in v]
    if isinstance(v, dict):
        return {k: jsonable(e) for k, e in v.items()}
    return v


def call(file, function, kind, fn, inp, *args, tol=0):
    """Calls fn(*args), recording its result or that it raised (inp as it
    was before the call: helpers may change their arguments)."""
    inp = copy.deepcopy(inp)
    try:
        out = fn(*args)
    except Exception:  # noqa: BLE001  (the port must fail as well)
        add(file, function, kind, inp, error=True)
        return None
    add(file, function, kind, inp, out, tol=tol)
    return out


def write(path):
    """Writes the recorded vectors in vectest's one format (vecformat.py)."""
    import vecformat
    recs = json.loads(json.dumps(vectors, ensure_ascii=False))
    out = [c for v in recs for c in vecformat.convert("vecreplay", v)]
    vecformat.write(path, out)
    print(f"{path}: {len(out)} vectors", file=sys.stderr)


def stub(name, **attrs):
    """Installs a stand-in module (for imports the recorded functions do not
    use, such as `evaluate` in modules whose metric functions are not
    ported); attributes are set from attrs."""
    import types

    m = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(m, k, v)
    sys.modules[name] = m
    return m


def stub_evaluate():
    """evaluate and radgraph stand-ins: load() gives an object whose compute
    raises, so only functions that do not score with them can be recorded."""

    class _Metric:
        def compute(self, **kw):
            raise RuntimeError("evaluate stand-in: not available here")

    stub("evaluate", load=lambda *a, **k: _Metric())
    stub("radgraph", F1RadGraph=lambda *a, **k: None)
