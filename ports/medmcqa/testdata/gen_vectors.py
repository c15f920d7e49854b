#!/usr/bin/env python3
"""Vectors for ports/medmcqa from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

docs = [
    {"id": "1", "question": "Which vitamin?", "opa": "A", "opb": "B12", "opc": "C", "opd": "D", "cop": 1},
    {"id": "2", "question": "Dose?", "opa": 1, "opb": 2.5, "opc": None, "opd": "4 mg", "cop": 3},
]
rel = "medmcqa/utils_medmcqa.py"
m = pyvec.load(rel)
pyvec.add_doc(rel, "doc_to_text", m.doc_to_text, docs)
pyvec.add_doc(rel, "doc_to_text", m.doc_to_text, [dict(docs[0], question=None)])
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
