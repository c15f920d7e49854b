#!/usr/bin/env python3
"""Vectors for ports/tmmluplus from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

docs = [
    {"question": "Q1", "A": "a", "B": "b", "C": "c", "D": "d", "answer": "A", "subject": "s"},
    {"question": "Q2", "A": 1, "B": 2, "C": None, "D": "d", "answer": "D", "subject": "s"},
    {"question": "Q3", "A": "a", "B": "b", "C": "c", "D": "d", "answer": "C", "subject": "s"},
]
rel = "tmmluplus/default/utils.py"
m = pyvec.load(rel)
pyvec.add_docs(rel, "process_docs", m.process_docs, docs)
pyvec.add_docs(rel, "process_docs", m.process_docs, [dict(docs[0], answer="E")])
pyvec.add_docs(rel, "process_docs", m.process_docs, [dict(docs[0], answer="a")])
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
