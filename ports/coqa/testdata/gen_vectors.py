#!/usr/bin/env python3
"""Vectors for ports/coqa from lm-eval's own coqa/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:fidelity/pystubs:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/coqa/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import vectest

V = vectest.Vectors("coqa/utils.py")
m = vectest.load("coqa/utils.py")
docs = [
    {"story": "Once upon a time.", "questions": {"input_text": ["Who?", "What?", "Where?"]}, "answers": {"input_text": ["A cat", "ate", "the park"]},
     "additional_answers": {"0": {"input_text": ["a cat", "eats", "The Park"]}, "1": {"input_text": ["cat", "ate food", "in the park"]}, "2": {"input_text": ["the cat", "x", "park"]}}},
    {"story": "S", "questions": {"input_text": ["Q1"]}, "answers": {"input_text": ["yes"]}},
    {"story": "S", "questions": {"input_text": ["Q1", "Q2"]}, "answers": {"input_text": ["no", "unknown"]}, "additional_answers": None},
]
for d in docs:
    V.call("doc_to_text", "doc", d, m.doc_to_text, d)
    V.call("doc_to_target", "doc", d, m.doc_to_target, d)
    for out in ["the park", "  In the park!\nmore", "park bench", "", "yes", "no", "The cat ate."]:
        V.call("process_results", "process_results", {"doc": d, "results": [out]}, m.process_results, d, [out])
V.write(vectest.out_path(__file__))
