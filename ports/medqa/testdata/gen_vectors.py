#!/usr/bin/env python3
"""Vectors for ports/medqa from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

docs = [
    {"id": "1", "sent1": "A 45-year-old man...", "sent2": "", "ending0": "x", "ending1": "y", "ending2": "z", "ending3": "w", "label": 2},
    {"id": "2", "sent1": 7, "sent2": "", "ending0": 1, "ending1": None, "ending2": "z", "ending3": "w", "label": 0},
]
rel = "medqa/preprocess_medqa.py"
m = pyvec.load(rel)
pyvec.add_doc(rel, "doc_to_text", m.doc_to_text, docs)
pyvec.add_doc(rel, "doc_to_target", m.doc_to_target, docs)
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
