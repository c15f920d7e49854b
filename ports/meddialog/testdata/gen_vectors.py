#!/usr/bin/env python3
"""Reference vectors for ports/meddialog from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/meddialog/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "meddialog/meddialog_utils.py"
from vecreplay import stub_evaluate  # noqa: E402

stub_evaluate()

u = load("meddialog/utils.py")
up = load("meddialog/utils_perplexity.py")
raw = [{"description": "Q. What does abutment of the nerve root mean?", "utterances": {"speaker": ["patient", "doctor"],
        "utterance": ["Hi doctor, I am just wondering what is abutting and abutment of the nerve root means in a back issue.",
                      "Hi. I have gone through your query with diligence and would like you to know that I am here to help you."]}},
       {"description": None, "utterances": {"utterance": ["only one"]}}, {"utterances": {"utterance": ["a", "b", "c  d\te"]}},
       {"description": "x", "utterances": {"utterance": ["a", ""]}}]
qs = [{"src": "SUBJECT: ear pain\nMESSAGE: I have had ear pain for two weeks.", "tgt": "What causes ear pain?  And   how to treat it?\n"},
      {"src": "s", "tgt": "ünïcode — text"}, {"src": "s", "tgt": 5}, {"src": "s"}, {"src": "s", "tgt": " leading space"}]
for d in raw:
    call("meddialog/utils.py", "doc_to_text_raw", "doc", u.doc_to_text_raw, d, d)
    call("meddialog/utils.py", "doc_to_target_raw", "doc", u.doc_to_target_raw, d, d)
    for ll in [-123.5, -0.25]:
        call("meddialog/utils_perplexity.py", "process_results_raw", "process_results", up.process_results_raw, {"doc": d, "results": [ll]}, d, [ll])
for d in qs:
    call("meddialog/utils.py", "doc_to_text_qsumm", "doc", u.doc_to_text_qsumm, d, d)
    call("meddialog/utils.py", "doc_to_target_qsumm", "doc", u.doc_to_target_qsumm, d, d)
    call("meddialog/utils_perplexity.py", "process_results_qsumm", "process_results", up.process_results_qsumm, {"doc": d, "results": [-42.0]}, d, [-42.0])
call("meddialog/utils_perplexity.py", "process_results_qsumm", "process_results", up.process_results_qsumm, {"doc": qs[0], "results": [-1.0, -2.0]}, qs[0], [-1.0, -2.0])
write(os.path.join(HERE, "vectors.json"))
