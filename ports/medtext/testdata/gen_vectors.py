#!/usr/bin/env python3
"""Reference vectors for ports/medtext from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/medtext/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "medtext/medtext_utils.py"
from vecreplay import stub_evaluate  # noqa: E402

stub_evaluate()

u = load("medtext/utils.py")
up = load("medtext/utils_perplexity.py")
for d in [{"Prompt": "A 45-year-old man presents with chest pain. What is the diagnosis?", "Completion": "The likely diagnosis is  angina.\n\nRefer."},
          {"Prompt": None, "Completion": ""}, {"Completion": 3}, {}]:
    call("medtext/utils.py", "doc_to_text", "doc", u.doc_to_text, d, d)
    call("medtext/utils.py", "doc_to_target", "doc", u.doc_to_target, d, d)
    call("medtext/utils_perplexity.py", "process_results", "process_results", up.process_results, {"doc": d, "results": [-17.5]}, d, [-17.5])
write(os.path.join(HERE, "vectors.json"))
