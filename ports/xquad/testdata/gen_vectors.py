#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/xquad/utils.py (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/xquad/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
F = "xquad/utils.py"
doc = {"id": "1", "context": "c", "question": "q", "answers": {"text": ["The Denver Broncos", "Broncos"], "answer_start": [0, 11]}}
for pred in ["Denver Broncos", " the  denver broncos!", "Broncos of Denver", "", "Carolina", "an a the",
             "Άρης, ο θεός", "ДЕНВЕР Бронкос", "Denver-Broncos", "Denver Broncos Denver"]:
    V.process_results(F, "process_results_qa", doc, [pred])
V.process_results(F, "process_results_qa", {"answers": {"text": ["a the"]}}, [""], note="no gold tokens")
V.process_results(F, "process_results_qa", {"answers": {"text": ["Ελλάδα"]}}, ["ελλάδα."])
V.process_results(F, "process_results_qa", {"answers": {"text": []}}, ["x"], note="IndexError")
V.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json"))
