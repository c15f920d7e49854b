#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/eus_reading's and eus_trivia's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/eus_reading/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
for d in [{"context": "Testua.", "question": "Zer?", "candidates": ["bat", "bi", "hiru", "lau"], "answer": 0},
          {"context": "T", "question": "Q", "candidates": ["a", "b"], "answer": 1},
          {"context": "T", "question": "Q", "candidates": ["a", "b", "c", "d", "e"], "answer": 1},
          {"context": "T", "question": "Q", "candidates": ["a"], "answer": 0}]:
    V.doc("eus_reading/utils.py", "doc_to_text_context", d)
    V.doc("eus_reading/utils.py", "doc_to_choice", d)
    V.doc("eus_trivia/utils.py", "doc_to_text", d)
    V.doc("eus_trivia/utils.py", "doc_to_choice", d)
V.write(OUT)
