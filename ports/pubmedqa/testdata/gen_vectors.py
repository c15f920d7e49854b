#!/usr/bin/env python3
"""Reference vectors for ports/pubmedqa from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/pubmedqa/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "pubmedqa/preprocess_pubmedqa.py"
u = load(F)
for d in [
    {"QUESTION": "Do mitochondria play a role in remodelling lace plant leaves during programmed cell death?",
     "CONTEXTS": ["Programmed cell death (PCD) is the regulated death of cells.", "The following organelle features were studied."],
     "LABELS": ["BACKGROUND", "METHODS"], "final_decision": "yes", "LONG_ANSWER": "Results depicted."},
    {"QUESTION": "Q?", "CONTEXTS": [], "final_decision": "no"},
    {"QUESTION": 7, "CONTEXTS": "abc", "final_decision": "maybe"},
    {"QUESTION": "Q", "CONTEXTS": ["a", 1]},
    {"QUESTION": "Q", "CONTEXTS": None},
    {"CONTEXTS": ["a"]},
]:
    call(F, "doc_to_text", "doc", u.doc_to_text, d, d)
write(os.path.join(HERE, "vectors.json"))
