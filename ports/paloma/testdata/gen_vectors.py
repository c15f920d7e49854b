#!/usr/bin/env python3
"""Reference vectors for ports/paloma from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/paloma/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "paloma/paloma_utils.py"
u = load(F)
for d in [{"text": "Hello world.\n\nSecond  paragraph.", "id": "a", "source": "c4_en"}, {"text": 12}, {"text": 1.5},
          {"text": None}, {"text": ["a", 1]}, {"text": {"k": "v"}}, {"text": True}, {"other": 1}]:
    call(F, "doc_to_target", "doc", u.doc_to_target, d, d)
write(os.path.join(HERE, "vectors.json"))
