#!/usr/bin/env python3
"""Vectors for ports/tmlu from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

base = {"question": "Q", "A": "a", "B": "b", "C": "c", "D": "d", "E": None, "F": None}
docs = [
    dict(base, answer="A"),
    dict(base, E="e", answer="E"),
    dict(base, E="e", F="f", answer="F"),
    dict(base, E="", F="f", answer="E"),
    dict(base, E=None, F=None, answer="B"),
    dict(base, E=0, F="f", answer="D"),
]
rel = "tmlu/default/utils.py"
m = pyvec.load(rel)
pyvec.add_docs(rel, "process_docs", m.process_docs, docs[:1])
pyvec.add_docs(rel, "process_docs", m.process_docs, docs[1:3])
pyvec.add_docs(rel, "process_docs", m.process_docs, [docs[4], docs[5]])
pyvec.add_docs(rel, "process_docs", m.process_docs, [docs[3]])  # ValueError: 'E' is not in list
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
