#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/indicparam's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/indicparam/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "indicparam/utils.py"
docs = [{"question_text": "प्रश्न?", "option_a": "क", "option_b": "ख", "option_c": 3, "option_d": "घ", "correct_answer": "c", "subject": "Marathi"},
        {"question_text": "Q", "option_a": "a", "option_b": "b", "option_c": "c", "option_d": "d", "correct_answer": "A", "subject": "Sanskrit Mix"},
        {"question_text": "Q", "option_a": "a", "option_b": "b", "option_c": "c", "option_d": "d", "correct_answer": "e", "subject": "Gujarati_surya"}]
for d in docs:
    for fn in ["doc_to_text", "doc_to_choice", "doc_to_target"]:
        V.doc(F, fn, d)
for k in ["bodo", "dogri", "gujarati", "konkani", "maithili", "marathi", "nepali", "oriya", "rajasthani", "sanskrit", "sanskrit_mix", "santali"]:
    V.process_docs(F, "process_docs_" + k, docs)
V.write(OUT)
