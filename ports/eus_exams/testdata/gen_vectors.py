#!/usr/bin/env python3
"""Vectors for ports/eus_exams from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

docs = [
    {"id": i, "question": f"Q{i}", "candidates": c, "answer": a}
    for i, (c, a) in enumerate([
        (["a", "b", "c", "d"], 0), (["a", "b", "c", "d"], 3), (["a", "b", "c", "d"], 4),
        (["a", "b", "c", "d"], -1), (["", "", "", ""], 1), (["", "", ""], 1), (["a", "", "", ""], 2),
        (["a", "b", "c", "d"], 1.0), (["a", "b", "c", "d"], True), (["a", "b", "c", "d"], "1"),
        (["a", "b", "c", "d"], None), (["a", "b", "c", "d"], 2.5),
    ])
]
rel = "eus_exams/utils.py"
m = pyvec.load(rel)
pyvec.add_docs(rel, "process_docs", m.process_docs, docs)
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
