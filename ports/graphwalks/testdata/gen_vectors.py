#!/usr/bin/env python3
"""Vectors for ports/graphwalks from lm-eval's own graphwalks/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/graphwalks/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import vectest

V = vectest.Vectors("graphwalks/utils.py")
m = vectest.load("graphwalks/utils.py")
for gold in [["a1", "b2", "c3"], [], ["x"]]:
    for r in ["Thinking...\nFinal Answer: [a1, 'b2', \"zz\"]", "Final Answer: [a1, b2, c3]\n\n", "Final Answer: []", "Final Answer: [ , a1 ,, ]",
              "Final Answer: [a1]\nmore text", "no answer", "", "Final Answer: a1, b2", "Final Answer: [a1] and [b2]", "Final Answer: [x]\nFinal Answer: [a1, c3]"]:
        d = {"prompt": "p", "answer_nodes": gold}
        V.call("process_results", "process_results", {"doc": d, "results": [r]}, m.process_results, d, [r])
V.write(vectest.out_path(__file__))
