#!/usr/bin/env python3
"""Reference vectors for ports/meqsum from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/meqsum/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "meqsum/meqsum_utils.py"
from vecreplay import stub_evaluate  # noqa: E402

stub_evaluate()

u = load("meqsum/utils.py")
for d in [{"File": "1-1", "CHQ": "SUBJECT: who and where to get cetirizine - D\nMESSAGE: I need to know who manufactures Cetirizine.", "Summary": "Who manufactures cetirizine?"},
          {"CHQ": "no header here", "Summary": "s"}, {"CHQ": "MESSAGE", "Summary": "s"}, {"CHQ": "ünï MESSAGE: ñandú", "Summary": None},
          {"CHQ": "MESSAGEMESSAGE: twice MESSAGE", "Summary": "s"}, {"CHQ": 5}, {"Summary": "s"}]:
    call("meqsum/utils.py", "doc_to_text", "doc", u.doc_to_text, d, d)
    call("meqsum/utils.py", "doc_to_target", "doc", u.doc_to_target, d, d)
write(os.path.join(HERE, "vectors.json"))
