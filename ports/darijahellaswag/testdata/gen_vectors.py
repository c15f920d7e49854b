#!/usr/bin/env python3
"""Vectors for ports/darijahellaswag (also egyhellaswag's) from lm-eval's own process_docs.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src /usr/bin/python3 \
    ports/darijahellaswag/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import sys

sys.path.insert(0, "ports/internal/vectest")
import vectorlib as V  # noqa: E402

V.setup(sys.argv[1])
docs = [
    {"ind": 4, "activity_label": "طياب", "ctx_a": "a", "ctx_b": "b", "ctx": "واحد كيطيب", "endings": ["x", "y", "z", "w"],
     "source_id": "s", "split": "val", "split_type": "indomain", "label": "2"},
    {"ind": 5, "activity_label": "L", "ctx_a": "", "ctx_b": "", "ctx": "", "endings": ["a", "b"],
     "source_id": "s", "split": "val", "split_type": "zeroshot", "label": 1},
]
for rel in ["darijahellaswag/utils.py", "egyhellaswag/utils.py"]:
    m = V.load(rel)
    V.process_docs(rel, m.process_docs, docs)
    V.process_docs(rel, m.process_docs, [dict(docs[0], label="")])
    V.process_docs(rel, m.process_docs, [dict(docs[0], ctx=None)])
V.dump("ports/darijahellaswag/testdata/vectors.json")
