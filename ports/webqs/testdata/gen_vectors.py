#!/usr/bin/env python3
"""Reference vectors for ports/webqs from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/webqs/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "webqs/utils.py"
u = load(F)
for answers in [["Jamaican English", "Jamaican Creole English Language"], ["Padme Amidala"], ["b", "a", "ab", "abc", "ba", "B"],
                ["Ünïcode", "Unicode", "U"], ["x", "x", "xy"], ["", "a", "b"], []]:
    d = {"url": "http://www.freebase.com/view/en/justin_bieber", "question": "what is the name of justin bieber brother?", "answers": answers}
    call(F, "doc_to_choice", "doc", lambda: u.doc_to_choice(dict(d, answers=list(answers))), d)
    call(F, "doc_to_target", "doc", lambda: u.doc_to_target(dict(d, answers=list(answers))), d)
write(os.path.join(HERE, "vectors.json"))
