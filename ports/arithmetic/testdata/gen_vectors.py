#!/usr/bin/env python3
"""Vectors for ports/arithmetic from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

docs = [
    {"context": "\n\nQ: What is (2 * 7) + 9?\n\nA:", "completion": " 23"},
    {"context": "  Q: What is 5 plus 3?\n\n\n\nA:  ", "completion": " 8"},
    {"context": "QA: Q:A:\n\n\n", "completion": ""},
    {"context": "\u3000Q: x\x1c", "completion": 7},
]
rel = "arithmetic/utils.py"
m = pyvec.load(rel)
pyvec.add_docs(rel, "process_docs", m.process_docs, docs)
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
