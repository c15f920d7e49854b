#!/usr/bin/env python3
"""Vectors for ports/darijammlu and ports/egymmlu (their utils.py are the
same but for the prompt and the subject column) from lm-eval's own helpers.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src /usr/bin/python3 \
    ports/darijammlu/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import sys

sys.path.insert(0, "ports/internal/vectest")
import vectorlib as V  # noqa: E402

V.setup(sys.argv[1])
base = [
    {"question": "شنو هي عاصمة المغرب؟", "context": "", "choices": ["الرباط", "كازا", "فاس", "مراكش"], "answer": 0},
    {"question": "Q", "context": "نص طويل\nسطر", "choices": ["a", "b"], "answer": 1},
    {"question": "Q {}", "context": None, "choices": ["a", 2, None, "d", "e"], "answer": 4},
    {"question": 7, "context": " ", "choices": [], "answer": 0},
    {"question": "six", "context": "", "choices": ["1", "2", "3", "4", "5", "6"], "answer": 5},
]
for pkg, key in [("darijammlu", "subject_darija"), ("egymmlu", "egy_subject")]:
    rel = f"{pkg}/utils.py"
    m = V.load(rel)
    vecs = V.vectors
    V.vectors = []
    for i, d in enumerate(base):
        d = dict(d, subject="s", **{key: ["المحاسبة", "تاريخ", None, "x", "y"][i]})
        V.doc(rel, "doc_to_text", m.doc_to_text, d)
        V.doc(rel, "doc_to_choice", m.doc_to_choice, d)
    V.doc(rel, "doc_to_text", m.doc_to_text, {"question": "q", "context": "", "choices": ["a"]})
    V.dump(f"ports/{pkg}/testdata/vectors.json")
