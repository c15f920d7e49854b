#!/usr/bin/env python3
"""Reference vectors for ports/mts_dialog from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/mts_dialog/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "mts_dialog/mts_dialog_utils.py"
from vecreplay import stub_evaluate  # noqa: E402

stub_evaluate()

u = load("mts_dialog/utils.py")
up = load("mts_dialog/utils_perplexity.py")
for d in [{"ID": 0, "section_header": "GENHX", "section_text": "The patient is a 76-year-old white female who presents to the clinic today.",
           "dialogue": "Doctor: What brings you back into the clinic today, miss?\nPatient: I came in for a refill of my blood pressure medicine."},
          {"dialogue": "", "section_text": "a\u2003b\u00a0c"}, {"dialogue": 1}, {}]:
    call("mts_dialog/utils.py", "doc_to_text", "doc", u.doc_to_text, d, d)
    call("mts_dialog/utils.py", "doc_to_target", "doc", u.doc_to_target, d, d)
    call("mts_dialog/utils_perplexity.py", "process_results", "process_results", up.process_results, {"doc": d, "results": [-250.125]}, d, [-250.125])
write(os.path.join(HERE, "vectors.json"))
