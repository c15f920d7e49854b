"""datasets' map cache, for lm-eval-runner's datasets stand-in.

A real `datasets.Dataset.map` caches its result under a fingerprint of the
dataset and the function: calling it again with the same function on the
same rows returns the cached rows without running the function. lm-eval
calls a task's process_docs several times (few-shot docs, evaluation docs,
requests, scoring); with a fresh cache every call returns the first one's
result. Helpers that draw random numbers in map (gpqa's shuffles) depend on
this, so fidelity/gen.py runs lm-eval with this cache in place
(fidelity/pysetup/sitecustomize.py loads this file).

The fingerprint covers what the function closes over (datasets hashes the
function with its closure): qasper's process_docs_bool and
process_docs_freeform map the same inner function over the same rows, with
a different set_answer_type, and must not share results. A captured
function counts by its code.

A real dataset is also an immutable Arrow table: map's function, and
whoever iterates or indexes the dataset, get fresh rows, so a helper that
changes a row's list in place (wsc273's process_doc) changes nothing
stored. The stand-in's rows are Python objects shared by shallow copies;
here map, iteration and indexing hand out deep copies, as Arrow would.
"""
import copy
import json

import datasets

_orig_map = datasets.Dataset.map
_orig_getitem = datasets.Dataset.__getitem__
_cache = {}


def _closure(function):
    cells = getattr(function, "__closure__", None) or ()
    out = []
    for c in cells:
        try:
            v = c.cell_contents
        except ValueError:  # an empty cell
            out.append(None)
            continue
        out.append(("code", v.__code__) if hasattr(v, "__code__") else repr(v))
    return tuple(out)


def _map(self, function=None, *args, **kwargs):
    try:
        key = (getattr(function, "__code__", function), _closure(function), repr(kwargs),
               json.dumps(list(self._rows), sort_keys=True, default=repr))
    except Exception:
        return _orig_map(self, function, *args, **kwargs)
    if key not in _cache:
        rows = self._rows
        self._rows = copy.deepcopy(rows)
        try:
            _cache[key] = _orig_map(self, function, *args, **kwargs)
        finally:
            self._rows = rows
    return _cache[key]


def _iter(self):
    for r in self._rows:
        yield copy.deepcopy(r)


def _getitem(self, key):
    return copy.deepcopy(_orig_getitem(self, key))


datasets.Dataset.map = _map
datasets.Dataset.__iter__ = _iter
datasets.Dataset.__getitem__ = _getitem
