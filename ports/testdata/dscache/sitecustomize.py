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
"""
import json

import datasets

_orig_map = datasets.Dataset.map
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
        _cache[key] = _orig_map(self, function, *args, **kwargs)
    return _cache[key]


datasets.Dataset.map = _map
