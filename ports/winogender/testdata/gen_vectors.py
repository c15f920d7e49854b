#!/usr/bin/env python3
"""Reference vectors for ports/winogender from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/winogender/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "winogender/utils.py"
u = load(F)
docs = [
    {"sentid": "technician.customer.1.male.txt", "sentence": "The technician told the customer that he could pay with cash.",
     "pronoun": "he", "occupation": "technician", "participant": "customer", "gender": "male", "target": "customer", "label": 1},
    {"sentid": "t.2", "sentence": "s", "pronoun": "she", "occupation": "o", "participant": "p", "gender": "female", "target": "o", "label": 0},
    {"sentid": "t.3", "sentence": "s", "pronoun": "they", "occupation": "o", "participant": "p", "gender": "neutral", "target": "o", "label": 0},
    {"sentid": "t.4", "sentence": "s", "pronoun": "he", "occupation": "o", "participant": "p", "gender": "Male", "target": "o", "label": 0},
    {"sentid": "t.5", "sentence": "s", "pronoun": "he", "occupation": "o", "participant": "p", "gender": "males", "target": "o", "label": 0},
    {"sentid": "t.6", "sentence": "s", "pronoun": "he", "occupation": "o", "participant": "p", "gender": None, "target": "o", "label": 0},
]
for fn in ["filter_male", "filter_female", "filter_neutral"]:
    f = getattr(u, fn)
    call(F, fn, "process_docs", lambda: list(f(DS(docs))), docs)
call(F, "filter_male", "process_docs", lambda: list(u.filter_male(DS([{"x": 1}]))), [{"x": 1}])
write(os.path.join(HERE, "vectors.json"))
