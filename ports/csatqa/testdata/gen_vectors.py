#!/usr/bin/env python3
"""Vectors for ports/csatqa from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

base = {"context": "지문 내용", "question": "질문은?", "option#1": "하나", "option#2": "둘", "option#3": "셋",
        "option#4": "넷", "option#5": "다섯"}
docs = [dict(base, gold="3"), dict(base, gold=1, **{"option#2": 2, "option#5": None}), dict(base, gold=" 5 "),
        dict(base, gold=2.0, context="line1\nline2")]
rel = "csatqa/utils.py"
m = pyvec.load(rel)
pyvec.add_docs(rel, "process_docs", m.process_docs, docs)
pyvec.add_docs(rel, "process_docs", m.process_docs, [dict(base, gold="x")])
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
