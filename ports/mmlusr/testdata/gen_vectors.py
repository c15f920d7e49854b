#!/usr/bin/env python3
"""Vectors for ports/mmlusr from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

rows = [
    ["What is 2+2?", "3", "4", "5", "6", "B"],
    ["  Spaced question  ", None, "x", "", "z", " C "],
    ["Numbers", 0, 5, 2.5, "7", "A"],
    ["No answer", "a", "b", "c", "d", None],
    ["Empty answer", "a", "b", "c", "d", ""],
]
docs = [dict(zip(["question", "choice1", "choice2", "choice3", "choice4", "answer"], r)) for r in rows]
for rel in ["mmlusr/answer_only/utils.py", "mmlusr/question_only/utils.py", "mmlusr/question_and_answer/utils.py"]:
    m = pyvec.load(rel)
    pyvec.add_docs(rel, "process_docs", m.process_docs, docs)
    pyvec.add_docs(rel, "process_docs", m.process_docs, [dict(docs[0], answer=3)])  # AttributeError: int .strip
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
