"""Canonical JSON of PyYAML values, shared by gen.py and scan.py.

None -> null; bool -> {"b": x}; int -> {"i": "decimal"}; float -> {"f":
"nan"} or {"f": "<IEEE-754 bits as decimal>"}; str -> {"s": x}; list ->
{"l": [...]}; dict -> {"m": [[str(key), value], ...]} sorted by key;
date/datetime -> {"date": str(value)}; a !function tag -> {"fn": name}.
A mapping under doc_to_choice becomes the list of its values and one under
regex_pattern_to_value the list of its [key, value] pairs, as lm-eval (and
lmeval) make of them.
"""
import datetime
import math
import struct
import sys
from pathlib import Path

import yaml

sys.path.insert(0, "/tmp/lmevalref/src")


class Fn(str):
    pass


def lmeval_loader(base_dir):
    """lm-eval's own loader class (lm_eval/tasks/_yaml_loader.py), with the
    !function constructor replaced by one that records the name."""
    import lmevalref_compat  # noqa: F401  (../shared/lm-eval-runner/stubs)
    from lm_eval.tasks._yaml_loader import _make_loader

    cls = _make_loader(Path(base_dir), resolve_funcs=False)

    class L(cls):
        pass

    yaml.add_constructor("!function", lambda l, n: Fn(l.construct_scalar(n)), Loader=L)
    return L


def canon(v, key=""):
    if isinstance(v, dict) and key == "doc_to_choice":
        return canon(list(v.values()))
    if isinstance(v, dict) and key == "regex_pattern_to_value":
        return canon([[k, x] for k, x in v.items()])
    if v is None:
        return None
    if isinstance(v, Fn):
        return {"fn": str(v).strip()}
    if isinstance(v, bool):
        return {"b": v}
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        if math.isnan(v):
            return {"f": "nan"}
        return {"f": str(struct.unpack("<Q", struct.pack("<d", v))[0])}
    if isinstance(v, str):
        return {"s": v}
    if isinstance(v, (datetime.date, datetime.datetime)):
        return {"date": str(v)}
    if isinstance(v, (list, tuple)):
        return {"l": [canon(x) for x in v]}
    if isinstance(v, dict):
        items = sorted((str(k), x) for k, x in v.items())
        return {"m": [[k, canon(x, k)] for k, x in items]}
    raise TypeError(type(v))
