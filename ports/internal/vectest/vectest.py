"""Helpers for the ports' vector generators (ports/<dir>/testdata/gen_vectors.py).

A generator loads a real lm-eval helper module, calls its functions on
inputs chosen to reach their branches and writes what they returned (or the
exception they raised) as JSON vectors, which ports/internal/vectest's Go
Run replays through the registered ports.

Run generators with lm-eval-runner's stubs on the path:
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/<dir>/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import importlib.util
import json
import math
import os
import sys

import lmevalref_compat  # noqa: F401  (lm-eval-runner: typing shims lm_eval.tasks needs)

TASKS = sys.argv[1] if len(sys.argv) > 1 else "../shared/lm-eval/lm_eval/tasks"


def load(rel):
    """Import lm_eval/tasks/<rel> as a module of its own."""
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_").replace("-", "_")[:-3], os.path.join(TASKS, rel))
    m = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.join(TASKS, rel)))
    try:
        spec.loader.exec_module(m)
    finally:
        sys.path.pop(0)
    return m


def plain(v):
    """v as JSON values: tuples and sets become lists, numpy scalars numbers
    (numpy bools their str(), "True" or "False", as lm-eval's samples show them)."""
    try:
        import numpy as np
    except ImportError:
        np = None
    if np is not None and isinstance(v, np.bool_):
        return str(v)  # as lm-eval logs it (handle_non_serializable)
    if np is not None and isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return {"float": repr(v)}
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if hasattr(v, "__iter__") and not isinstance(v, (str, bytes)) and hasattr(v, "column_names"):
        return [plain(d) for d in v]
    return v


class Vectors:
    def __init__(self, file):
        self.file = file  # relative to lm_eval/tasks, the ported module
        self.items = []

    def call(self, function, kind, inp, fn, *args, **extra):
        """Record fn(*args) (or the exception it raises) for inp."""
        v = {"file": extra.pop("file", self.file), "function": function, "kind": kind, "input": plain(inp)}
        try:
            v["output"] = plain(fn(*args))
        except Exception as e:  # noqa: BLE001
            v["error"] = type(e).__name__
        v.update(extra)
        self.items.append(v)
        return v

    def write(self, path):
        """Writes the recorded vectors in vectest's one format (vecformat.py)."""
        import vecformat
        recs = json.loads(json.dumps(self.items, ensure_ascii=False))
        out = [c for v in recs for c in vecformat.convert("vectest", v)]
        vecformat.write(path, out)
        print(f"{path}: {len(out)} vectors", file=sys.stderr)


def out_path(gen_file):
    return os.path.join(os.path.dirname(os.path.abspath(gen_file)), "vectors.json")
