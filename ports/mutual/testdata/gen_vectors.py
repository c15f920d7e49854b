#!/usr/bin/env python3
"""Vectors for ports/mutual from lm-eval's own mutual/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/mutual/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import datasets
import vectest

V = vectest.Vectors("mutual/utils.py")
m = vectest.load("mutual/utils.py")
docs = [{"answers": "B", "options": ["m : i do n't know .", "f : `` yes '' , she said !", "a ; b", "c ?"], "article": "f : hello , how are you ? \n m : fine ."}]
V.call("process_docs", "process_docs", docs, lambda: list(m.process_docs(datasets.Dataset.from_list(docs))))
for ans, r in [
    ("A", [(-1.0, False), (-2.0, False), (-3.0, False), (-4.0, False)]),
    ("B", [(-1.0, False), (-2.0, False), (-3.0, False), (-4.0, False)]),
    ("A", [(-1.0, True), (-2.0, False), (-3.0, False), (-4.0, False)]),
    ("B", [(-5.0, False), (-2.0, True), (-3.0, False), (-4.0, False)]),
    ("D", [(-5.0, False), (-2.0, False), (-3.0, False), (-1.0, True)]),
    ("C", [(-2.0, False), (-2.0, False), (-2.0, False), (-2.0, False)]),
    ("C", [(-3.0, False), (-1.0, False), (-2.0, False), (-4.0, False)]),
    ("D", [(0.5, False), (1.5, False), (0.2, False), (2.0, False)]),
    ("E", [(-1.0, False), (-2.0, False), (-3.0, False), (-4.0, False)]),
]:
    d = {"answers": ans}
    V.call("process_results", "process_results", {"doc": d, "results": r}, m.process_results, d, r, results="loglikelihood")
V.write(vectest.out_path(__file__))
