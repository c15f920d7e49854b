#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/basque_bench's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/basque_bench/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "basque_bench/utils.py"
for d in [{"premise": " Gizona erori zen. ", "choice1": "Irristatu zen", "choice2": "Korrika egin zuen", "question": "cause", "label": 0},
          {"premise": "x", "choice1": "Ández", "choice2": "İstanbul", "question": "effect", "label": 1},
          {"premise": "x", "choice1": "", "choice2": "b", "question": "effect", "label": 1}]:
    V.doc(F, "xcopa_doc_to_text", d)
    V.doc(F, "xcopa_doc_to_choice", d)
V.doc(F, "xcopa_doc_to_text", {"premise": "x", "question": "zergatik"})
V.process_docs(F, "paws_process_docs", [
    {"id": 1, "sentence1": "Bat , bi ;", "sentence2": "Hiru lau.", "label": 1},
    {"id": 2, "sentence1": "", "sentence2": "x", "label": 0},
    {"id": 3, "sentence1": "a.", "sentence2": None, "label": 0},
    {"id": 4, "sentence1": "Ez", "sentence2": "Éuskara", "label": 0}])
V.write(OUT)
