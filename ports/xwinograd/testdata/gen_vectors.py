#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/xwinograd's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/xwinograd/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "xwinograd/utils.py"
for d in [{"sentence": "The trophy doesn't fit into the suitcase because _ is too big.", "option1": "the trophy", "option2": "the suitcase", "answer": "1"},
          {"sentence": "Ёжик _ спрятался под  листом. ", "option1": "маленький", "option2": "большой", "answer": "2"},
          {"sentence": "猫は_が好きです", "option1": "魚", "option2": "犬", "answer": "2"},
          {"sentence": "no blank here", "option1": "a", "option2": "b", "answer": "3"}]:
    for fn in ["doc_to_text", "doc_to_target", "doc_to_choice"]:
        V.doc(F, fn, d)
V.write(OUT)
