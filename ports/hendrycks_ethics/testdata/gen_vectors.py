#!/usr/bin/env python3
"""Vectors for ports/hendrycks_ethics from lm-eval's own hendrycks_ethics/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/hendrycks_ethics/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import vectest

V = vectest.Vectors("hendrycks_ethics/utils.py")
m = vectest.load("hendrycks_ethics/utils.py")
acts = ["I walked in the park.", "I ate a cake.", "My boss praised me.", "", "Ünïcödé ☕ day", "I found $20 on the street.", "x", "I went to the store."]
for a in acts:
    d = {"activity": a, "baseline": "Baseline for " + a}
    V.call("doc_to_text", "doc", d, m.doc_to_text, d)
    V.call("doc_to_target", "doc", d, m.doc_to_target, d)
V.write(vectest.out_path(__file__))
