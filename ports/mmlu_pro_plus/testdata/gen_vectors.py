#!/usr/bin/env python3
"""Vectors for ports/mmlu_pro_plus from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

letters = "ABCDEFGHIJKLMNOP"
docs = [
    {"question_id": 1, "question": "Which?", "options": ["yes", " no ", "maybe\n"], "answer": "B", "answer_index": 1,
     "cot_content": "A: Let's think step by step. No.", "src": "s", "category": "biology"},
    {"question_id": 2, "question": "Sixteen?", "options": [f" opt {c} " for c in letters], "answer": "P", "answer_index": 15,
     "cot_content": "", "src": "s", "category": "law"},
    {"question_id": 3, "question": "Ten?", "options": [f"o{c}" for c in letters[:10]], "answer": "J", "answer_index": 9,
     "cot_content": "", "src": "s", "category": "math"},
]
rel = "mmlu-pro-plus/utils.py"
m = pyvec.load(rel)
for fn in ["doc_to_text", "fewshot_to_text", "fewshot_to_target"]:
    pyvec.add_doc(rel, fn, getattr(m, fn), docs)
pyvec.add_doc(rel, "doc_to_text", m.doc_to_text, [dict(docs[1], options=docs[1]["options"] + ["Q"])])  # IndexError
for fn in [n for n in dir(m) if n.startswith("process_") and n != "process_docs"]:
    pyvec.add_docs(rel, fn, getattr(m, fn), [dict(d, category=c) for d in docs for c in ["biology", "law", "computer science"]])
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
