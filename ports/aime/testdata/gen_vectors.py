#!/usr/bin/env python3
"""Vectors for ports/aime from lm-eval's own aime/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/aime/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import vectest

V = vectest.Vectors("aime/utils.py")
m = vectest.load("aime/utils.py")
outs = ["The answer is $\\boxed{204}$.", "so $x = 204$ done", "204", "\\boxed 204", "\\boxed{0.5}", "$\\frac12$",
        "\\boxed{\\frac{1}{2}}", "answer: 033", "$$", "\\fbox{5}", "$3$ then $4$", "\\boxed{", "\\boxed{ 10\\% }"]
for o in outs:
    for d in [{"Question": "q", "Answer": 204}, {"problem": "q", "answer": "0.5"}, {"ID": 1, "answer": "5"}, {"answer": 33}]:
        V.call("process_results", "process_results", {"doc": d, "results": [o]}, m.process_results, d, [o])
d = {"Question": "q"}
V.call("process_results", "process_results", {"doc": d, "results": ["1"]}, m.process_results, d, ["1"])
V.write(vectest.out_path(__file__))
