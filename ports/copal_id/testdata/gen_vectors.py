#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/copal_id's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/copal_id/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "copal_id/utils.py"
for d in [{"premise": " Saya lapar. ", "choice1": "Makan", "choice2": "Tidur", "question": "effect", "label": 0},
          {"premise": "Dia menangis", "choice1": "a", "choice2": "b", "question": "cause", "label": 1},
          {"premise": "x.", "choice1": "a", "choice2": "b", "question": "other", "label": 1}]:
    V.doc(F, "doc_to_text_id", d)
    V.doc(F, "doc_to_choice", d)
V.write(OUT)
