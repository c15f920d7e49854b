"""Shared by the ports' testdata/gen_vectors.py: call lm-eval's own helpers
on chosen inputs and write what they return, for vectortest.Run.

A generator runs from the repository root as
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/<dir>/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
and writes ports/<dir>/testdata/vectors.json.
"""
import copy
import importlib.util
import json
import os
import random
import sys

import lmevalref_compat  # noqa: F401  (lm-eval-runner: typing shims lm_eval.tasks needs)

TASKS = sys.argv[1] if len(sys.argv) > 1 else "../shared/lm-eval/lm_eval/tasks"


def load(rel):
    """Import lm_eval/tasks/<rel> as a fresh module."""
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_").replace(" ", "_")[:-3], f"{TASKS}/{rel}")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


class DS(list):
    """datasets.Dataset's map and filter as the real library behaves: the
    function gets a fresh copy of each row (Arrow decodes one per call),
    columns it pops from that row leave the dataset, and the dict it returns
    updates the row (new keys appended in the dict's order)."""

    def map(self, fn):
        out = DS()
        for d in self:
            row = copy.deepcopy(d)
            res = fn(row)
            new = dict(row)
            if res is not None:
                new.update(res)
            out.append(new)
        return out

    def filter(self, fn):
        return DS(copy.deepcopy(d) for d in self if fn(copy.deepcopy(d)))


vectors = []


def add(file, function, kind, inp, out, **extra):
    v = {"file": file, "function": function, "kind": kind, "input": inp, "output": out}
    v.update(extra)
    vectors.append(v)


def add_doc(file, function, fn, docs):
    """A doc_to_* function on each document (an exception: "error")."""
    for d in docs:
        try:
            out = fn(copy.deepcopy(d))
        except Exception as e:  # noqa: BLE001
            add(file, function, "doc", d, None, error=type(e).__name__)
            continue
        add(file, function, "doc", d, out)


def union(docs):
    """The columns of documents: every key, in first-appearance order."""
    cols = []
    for d in docs:
        cols += [k for k in d if k not in cols]
    return cols


def add_docs(file, function, fn, docs, seed=None):
    """A process_docs on documents: the output documents and the column
    order of the first one (as the dataset's columns would be)."""
    if seed is not None:
        random.seed(seed)
    try:
        out = list(fn(DS(copy.deepcopy(docs))))
    except Exception as e:  # noqa: BLE001
        add(file, function, "process_docs", docs, None, error=type(e).__name__,
            **({"seed": seed} if seed is not None else {}))
        return
    extra = {"in_columns": union(docs), "columns": union(out)}
    if seed is not None:
        extra["seed"] = seed
    add(file, function, "process_docs", docs, out, **extra)


def dump(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    """Writes the recorded vectors in vectest's one format (vecformat.py)."""
    import vecformat
    recs = json.loads(json.dumps(vectors, ensure_ascii=False))
    out = [c for v in recs for c in vecformat.convert("vectortest", v)]
    vecformat.write(path, out)
    print(f"{path}: {len(out)} vectors", file=sys.stderr)
