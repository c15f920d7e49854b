#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/paws-x's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/paws_x/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "paws-x/utils.py"
V.process_docs(F, "process_docs_paraphrases", [
    {"id": 1, "sentence1": "He did n't go ( home ) , he said \" no \" .", "sentence2": "  She said 's ok .", "label": 1},
    {"id": 2, "sentence1": "", "sentence2": "x", "label": 0},
    {"id": 3, "sentence1": "a.", "sentence2": None, "label": 0},
    {"id": 4, "sentence1": "Sí ;", "sentence2": "Ésta es ' buena ' .", "label": 0}])
V.process_docs(F, "process_docs_paraphrases", [{"id": 5, "sentence1": "a", "sentence2": "   "}], note="IndexError on an empty sentence2")
V.write(OUT)
