#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/click's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/click/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
C, L = "click/click_cul/utils.py", "click/click_lang/utils.py"
docs = [
    {"id": "CSAT_korean_22_5", "paragraph": "지문", "question": "질문?", "choices": ["가", "나", "다", "라", "마"], "answer": "마"},
    {"id": "CSAT_korean_23_36", "paragraph": "", "question": "대화를 보고", "choices": ["a", "b", "c", "d", "e"], "answer": "b"},
    {"id": "CSAT_korean_20_11", "paragraph": None, "question": "q", "choices": ["a", "b", "c", "d"], "answer": "d"},
    {"id": "CSAT_korean_19_3", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "a"},
    {"id": "Kedu_16_2", "paragraph": "p", "question": "발화의 의도", "choices": ["a", "b", "c", "d"], "answer": "c"},
    {"id": "Kedu_16_3", "paragraph": "p", "question": "문법", "choices": ["a", "b", "c", "d"], "answer": "c"},
    {"id": "Kedu_12_1", "paragraph": "p", "question": "질의", "choices": ["a", "b", "c", "d"], "answer": "a"},
    {"id": "TK_3", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "b"},
    {"id": "TK_7", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "b"},
    {"id": "PSE_korean_1", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "b"},
    {"id": "KHB_1", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "b"},
    {"id": "Economy_1", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "b"},
    {"id": "PSAT_2", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "b"},
    {"id": "Korean_Law_3", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "b"},
    {"id": "Popular_Culture_1", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "b"},
    {"id": "History_9", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "z"},
    {"id": "geography_politics_society_tradition", "paragraph": "p", "question": "q", "choices": ["a", "b", "c", "d"], "answer": "a"},
]
for d in docs:
    for fn in ["get_context", "get_target", "get_choices"]:
        V.doc(C, fn, d)
        V.doc(L, fn, d)
for k in ["economy", "geography", "history", "law", "politics", "kpop", "society", "tradition"]:
    V.process_docs(C, "extract_" + k, docs)
ok = [d for d in docs if d["id"] not in ("Kedu_12_1",)]
for k in ["text", "grammar", "function"]:
    V.process_docs(L, "extract_" + k, docs)
V.process_docs(L, "extract_text", [{"id": "TK_x", "question": "q"}], note="int() of a non-number")
V.process_docs(L, "extract_grammar", [{"id": "CSAT_korean", "question": "q"}], note="IndexError")
V.write(OUT)
