#!/usr/bin/env python3
"""Vectors for ports/glianorex from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

docs = [
    {"question": "Quel est...?", "options": {"A": "un", "B": "deux", "C": "trois", "D": "quatre"}, "answer": "deux",
     "answer_idx": "B", "language": "fr"},
    {"question": "What is...?", "options": {"A": "one", "B": 2, "C": None, "D": "four"}, "answer": "one",
     "answer_idx": "A", "language": "en-US"},
    {"question": "Q", "options": {"A": "a", "B": "b", "C": "c", "D": "d"}, "answer": "d", "answer_idx": "D",
     "language": "english"},
    {"question": "Q", "options": {"A": "a", "B": "b", "C": "c", "D": "d"}, "answer": "c", "answer_idx": "C",
     "language": "French"},
]
rel = "glianorex/preprocess_glianorex.py"
m = pyvec.load(rel)
pyvec.add_doc(rel, "doc_to_text", m.doc_to_text, docs)
pyvec.add_doc(rel, "doc_to_target", m.doc_to_target, docs)
pyvec.add_docs(rel, "filter_english", m.filter_english, docs)
pyvec.add_docs(rel, "filter_french", m.filter_french, docs)
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
