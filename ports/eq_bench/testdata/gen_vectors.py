#!/usr/bin/env python3
"""Vectors for ports/eq_bench from lm-eval's own eq_bench/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/eq_bench/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import contextlib
import io

import vectest

V = vectest.Vectors("eq_bench/utils.py")
m = vectest.load("eq_bench/utils.py")
ref = "{'emotion1': 'Surprised', 'emotion2': 'Confused', 'emotion3': 'Angry', 'emotion4': 'Relieved', 'emotion1_score': 7, 'emotion2_score': '5', 'emotion3_score': 0, 'emotion4_score': 2}"
outs = [
    "Surprised: 7\nConfused: 5\nAngry: 0\nRelieved: 2",
    "Surprised: 9\nConfused: 2\nAngry: 8\nRelieved: 10",
    "Surprised: 6\nConfused: 4\nAngry: 1\nRelieved: 3",
    "Surprised: 7\nConfused: 5\nAngry: 0",
    "Surprised: 7\nConfused: 5\nAngry: 0\nHappy: 2",
    "Surprised: 7\nConfused: 5\nAngry: 0\nRelieved: 2\nSurprised: 1",
    "Surprised:7\nConfused: 5\nAngry: 0\nRelieved: 2\nCalm: 3",
    "Relieved: 10\nAngry: 10\nConfused: 10\nSurprised: 10",
    "Surprised: ٧\nConfused: 5\nAngry: 0\nRelieved: 2",
    "",
]
d = {"prompt": "p", "reference_answer_fullscale": ref}
with contextlib.redirect_stdout(io.StringIO()):
    for o in outs:
        V.call("calculate_score_fullscale", "process_results", {"doc": d, "results": [o]}, m.calculate_score_fullscale, d, [o])
V.write(vectest.out_path(__file__))
