#!/usr/bin/env python3
"""Vectors for ports/careqa from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

import types

# utils_open.py loads BLEU, ROUGE, BLEURT and BERTScore through `evaluate`
# at import; doc_to_text and doc_to_target do not use them.
sys.modules["evaluate"] = types.SimpleNamespace(load=lambda *a, **k: None)

docs = [
    {"exam_id": 1, "question": "Which drug?", "op1": "a", "op2": "b", "op3": "c", "op4": "d", "cop": 2,
     "year": 2020, "category": "Medicine", "unique_id": "u1"},
    {"exam_id": 2, "question": None, "op1": "a", "op2": "b", "op3": "c", "op4": "d", "cop": 1,
     "year": 2020, "category": "Medicine", "unique_id": "u2"},
    {"exam_id": 3, "question": "Numbers", "op1": 1, "op2": 2.5, "op3": None, "op4": "d", "cop": 4.0,
     "year": 2020, "category": "Nursing", "unique_id": "u3"},
]
rel = "careqa/utils.py"
m = pyvec.load(rel)
pyvec.add_doc(rel, "doc_to_text", m.doc_to_text, docs)
pyvec.add_doc(rel, "doc_to_target", m.doc_to_target, docs)
pyvec.add_doc(rel, "doc_to_target", m.doc_to_target, [dict(docs[0], cop="2")])  # TypeError
open_docs = [
    {"question": "What is the first-line treatment?", "answer": "Metformin  and diet.\n", "exam_id": 1},
    {"question": "Q?", "answer": " leading and trailing ", "exam_id": 2},
    {"question": "Q?", "answer": "único\u00a0espacio", "exam_id": 3},
]
rel = "careqa/utils_open.py"
m = pyvec.load(rel)
pyvec.add_doc(rel, "doc_to_text", m.doc_to_text, open_docs)
pyvec.add_doc(rel, "doc_to_target", m.doc_to_target, open_docs)
rel = "careqa/utils_perplexity.py"
m = pyvec.load(rel)
for d, ll in zip(open_docs, [-12.5, -3.0, -0.25]):
    pyvec.add(rel, "process_results", "process_results", {"doc": d, "results": [ll]},
              m.process_results(d, [ll]))
try:
    m.process_results(open_docs[2], [-5000.0])
except OverflowError as e:
    pyvec.add(rel, "process_results", "process_results", {"doc": open_docs[2], "results": [-5000.0]}, None,
              error=type(e).__name__)
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
