#!/usr/bin/env python3
"""Reference vectors for ports/olaph from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/olaph/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "olaph/olaph_utils.py"
from vecreplay import stub_evaluate  # noqa: E402

stub_evaluate()

u = load("olaph/utils.py")
up = load("olaph/utils_perplexity.py")
for n in [0, 5, 10, 29, 30, 71]:
    docs = [{"Question": f"q{i}", "Free_form_answer": f"a{i}", "Must_have": [], "Nice_to_have": []} for i in range(n)]
    call("olaph/utils.py", "process_docs", "process_docs", lambda: list(u.process_docs(DS(docs))), docs)
for d in [{"Question": "What are the side effects of metformin?", "Free_form_answer": "Common side effects include nausea,\ndiarrhea  and stomach upset."},
          {"Question": None, "Free_form_answer": "x"}, {"Free_form_answer": None}, {}]:
    call("olaph/utils.py", "doc_to_text", "doc", u.doc_to_text, d, d)
    call("olaph/utils.py", "doc_to_target", "doc", u.doc_to_target, d, d)
    call("olaph/utils_perplexity.py", "process_results", "process_results", up.process_results, {"doc": d, "results": [-33.0]}, d, [-33.0])
write(os.path.join(HERE, "vectors.json"))
