#!/usr/bin/env python3
"""Reference vectors for ports/afrixnli and ports/afrimmlu, from lm-eval's own helpers.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/afrixnli/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks afrixnli \
    > ports/afrixnli/testdata/vectors.json
  (the same with afrimmlu > ports/afrimmlu/testdata/vectors.json)

Every utils.py of the directory whose functions a YAML names is loaded and
each such function called on documents reaching its branches.
"""
import importlib.util
import json
import os
import sys

import lmevalref_compat  # noqa: F401

TASKS, DIR = sys.argv[1], sys.argv[2]


def load(rel):
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_")[:-3], f"{TASKS}/{rel}")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def call(fn, d):
    try:
        return {"output": fn(d)}
    except Exception as e:  # noqa: BLE001
        return {"error": f"{type(e).__name__}: {e}"}


docs = {
    "afrixnli": [
        {"premise": "Ọmọ náà ń sùn.", "hypothesis": "Ọmọ náà jí.", "label": 0},
        {"premise": "The {cat} sat.", "hypothesis": "A cat sat", "label": 1},
        {"premise": "P", "hypothesis": "H", "label": 2},
        {"premise": "P", "hypothesis": "H", "label": 3},
        {"premise": "", "hypothesis": "", "label": True},
    ],
    "afrimmlu": [
        {"subject": "elementary_mathematics", "question": "What is 2+2?", "choices": "['3', '4', '5', '6']", "answer": "B"},
        {"subject": "high_school_geography", "question": "Olú-ìlú Kenya?", "choices": "[\"Nairobi\", 'Mombasa', 'Kisumu', 'Nakuru', 'extra']", "answer": "A"},
        {"subject": "{subject}", "question": "Q {x}", "choices": "[1, 2.5, None, 'd']", "answer": "C"},
        {"subject": "s", "question": "q", "choices": "['a', 'b']", "answer": "A"},
        {"subject": "s", "question": "q", "choices": "('t1', 't2', 't3', 't4')", "answer": "D"},
    ],
}[DIR]

out = []
for root, _, files in sorted(os.walk(f"{TASKS}/{DIR}")):
    if "utils.py" not in files:
        continue
    rel = os.path.relpath(os.path.join(root, "utils.py"), TASKS)
    named = set()
    for f in files:
        if not f.endswith(".py"):
            named |= {n.split(".")[-1] for n in open(os.path.join(root, f), encoding="utf-8").read().split("!function ")[1:]
                      for n in [n.split()[0]]}
    m = load(rel)
    for fn in sorted(named):
        if not hasattr(m, fn) or fn == "weighted_f1_score":
            continue
        for d in docs:
            out.append({"file": rel, "function": fn, "doc": d, **call(getattr(m, fn), d)})
print(json.dumps(out, ensure_ascii=False, indent=0))
