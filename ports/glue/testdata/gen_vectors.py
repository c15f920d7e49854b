#!/usr/bin/env python3
"""Vectors for ports/glue from lm-eval's own glue/mnli/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/glue/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import vectest

V = vectest.Vectors("glue/mnli/utils.py")
m = vectest.load("glue/mnli/utils.py")
for d in [{"premise": "A man eats.", "hypothesis": "Someone eats", "label": 0}, {"premise": "P", "hypothesis": "  ends.  \n", "label": 1},
          {"premise": "P", "hypothesis": "", "label": 2}]:
    V.call("doc_to_text", "doc", d, m.doc_to_text, d)
V.write(vectest.out_path(__file__))
