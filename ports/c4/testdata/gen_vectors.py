#!/usr/bin/env python3
"""Vectors for ports/c4 from lm-eval's own c4/preprocess_c4.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/c4/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import vectest

V = vectest.Vectors("c4/preprocess_c4.py")
m = vectest.load("c4/preprocess_c4.py")
for t in ["The dogs ' bone , 1 @,@ 000 @.@ 5 km ( big ) [ x ] { y } \" q \" ' s ' = = = = H = = N 's 5 ° C \n next",
          "  leading   and trailing  ", "plain text.", "", "a\u2003b\tc\nd"]:
    d = {"text": t, "timestamp": "x", "url": "u"}
    V.call("c4_detokenizer", "doc", d, m.c4_detokenizer, d)
V.write(vectest.out_path(__file__))
