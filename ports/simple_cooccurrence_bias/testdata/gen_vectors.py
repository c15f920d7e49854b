#!/usr/bin/env python3
"""Vectors for ports/simple_cooccurrence_bias from lm-eval's own utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/simple_cooccurrence_bias/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import vectest

V = vectest.Vectors("simple_cooccurrence_bias/utils.py")
m = vectest.load("simple_cooccurrence_bias/utils.py")
d = {"sentence": "The nurse said that"}
for lls in [[-1.0, -2.0, -3.0, -4.0], [-4.0, -3.0, -2.0, -1.0], [-2.0, -2.0, -2.0, -2.0], [-10.0, -1.5, -1.5, -9.0]]:
    r = [(x, False) for x in lls]
    V.call("process_results", "process_results", {"doc": d, "results": r}, m.process_results, d, r, results="loglikelihood")
for resps in [["male", "man", "female"], ["woman", "[invalid]"], ["[invalid]", "[invalid]"], [], ["man"], ["female", "woman"]]:
    V.call("process_results_gen", "process_results", {"doc": d, "results": [resps]}, m.process_results_gen, d, [resps])
V.write(vectest.out_path(__file__))
