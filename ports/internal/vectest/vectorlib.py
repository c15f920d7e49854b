"""What the ports' testdata/gen_vectors.py share: load a helper module of
lm-eval's task tree, a datasets.Dataset stand-in, and the vector record
that ports/internal/vectest (calls.go) replays.

A generator does
    sys.path.insert(0, "ports/internal/vectest"); import vectorlib as V
and, run from the repository root with lm-eval-runner's PYTHONPATH, writes
V.dump(path) at the end.
"""
import importlib.util
import json
import os
import sys

import lmevalref_compat  # noqa: F401  (lm-eval-runner: typing shims lm_eval.tasks needs)

TASKS = None
vectors = []


def setup(tasks):
    global TASKS
    TASKS = tasks
    # lm_eval.tasks.<dir>.<module> imports (arab_culture's prompts) resolve
    # to the tree the generator reads
    root = os.path.dirname(os.path.dirname(os.path.abspath(tasks)))
    if root not in sys.path:
        sys.path.insert(0, root)


def load(rel, name=None):
    spec = importlib.util.spec_from_file_location(name or rel.replace("/", "_").replace("-", "_")[:-3],
                                                  f"{TASKS}/{rel}")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


class DS(list):
    """The part of datasets.Dataset the helpers use: map (the returned dict
    updates a copy of the row) and filter."""

    def map(self, fn):
        out = DS()
        for d in self:
            nd = dict(d)
            res = fn(dict(d))
            if res is not None:
                nd.update(res)
            out.append(nd)
        return out

    def filter(self, fn):
        return DS(d for d in self if fn(d))


def err(e):
    return f"{type(e).__name__}: {e}"


def add(file, function, kind, inp, **kw):
    v = {"file": file, "function": function, "kind": kind, "input": inp}
    v.update(kw)
    vectors.append(v)


def doc(file, function, fn, d, **kw):
    """One doc_to_* call."""
    try:
        add(file, function, "doc", d, output=fn(d), **kw)
    except Exception as e:  # noqa: BLE001
        add(file, function, "doc", d, error=err(e), **kw)


def process_docs(file, fn, docs, function="process_docs", **kw):
    """One process_docs call on docs (dicts in column order)."""
    columns = list(docs[0].keys()) if docs else []
    try:
        out = list(fn(DS(dict(d) for d in docs)))
        add(file, function, "process_docs", docs, columns=columns, output=out,
            keys=list(out[0].keys()) if out else [], **kw)
    except Exception as e:  # noqa: BLE001
        add(file, function, "process_docs", docs, columns=columns, error=err(e), **kw)


def dump(path):
    """Writes the recorded vectors in vectest's one format (vecformat.py)."""
    import vecformat
    recs = json.loads(json.dumps(vectors, ensure_ascii=False))
    out = [c for v in recs for c in vecformat.convert("portvectors", v)]
    vecformat.write(path, out)
    print(f"{path}: {len(out)} vectors", file=sys.stderr)
