#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/kobest's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/kobest/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "kobest/utils.py"
for d in [{"premise": "물을 엎질렀다.", "question": " 결과 ", "alternative_1": "바닥이 젖었다.", "alternative_2": "목이 말랐다.", "label": 0},
          {"premise": "배가 고팠다.", "question": "원인", "alternative_1": "a", "alternative_2": "b", "label": 1},
          {"premise": "x", "question": "기타", "alternative_1": "a", "alternative_2": "b", "label": 0.0}]:
    for fn in ["copa_doc_to_text", "copa_doc_to_target", "copa_doc_to_choice"]:
        V.doc(F, fn, d)
V.doc(F, "sentineg_doc_to_text", {"sentence": "영화가 재미없지 않았다", "label": 1})
V.doc(F, "wic_doc_to_text", {"word": "배", "context_1": "배가 아프다", "context_2": "배를 탔다", "label": False})
V.process_docs(F, "hellaswag_process_doc", [
    {"context": "그는 공을 던졌다", "ending_1": "a", "ending_2": "b", "ending_3": "c", "ending_4": "d", "label": 2},
    {"context": "x", "ending_1": "1", "ending_2": "2", "ending_3": "3", "ending_4": "4", "label": "3"}])
V.write(OUT)
