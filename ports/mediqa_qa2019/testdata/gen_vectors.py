#!/usr/bin/env python3
"""Reference vectors for ports/mediqa_qa2019 from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/mediqa_qa2019/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "mediqa_qa2019/mediqa_qa2019_utils.py"
from vecreplay import stub_evaluate  # noqa: E402

stub_evaluate()

import contextlib  # noqa: E402
import io  # noqa: E402

u = load("mediqa_qa2019/utils.py")
up = load("mediqa_qa2019/utils_perplexity.py")
docs = [{"QUESTION": {"QID": "1", "QuestionText": "What are the symptoms of Lyme disease?",
                      "AnswerList": [{"Answer": {"AID": "1_1", "SystemRank": 1, "ReferenceRank": 1, "ReferenceScore": 4,
                                                 "AnswerURL": "u", "AnswerText": "Lyme disease symptoms include fever,  headache\nand fatigue."}},
                                     {"Answer": {"AnswerText": "second"}}]}},
        {"QUESTION": {"QuestionText": 1, "AnswerList": []}}, {"QUESTION": {"AnswerList": [{"Answer": {"AnswerText": "ünï  "}}]}}, {}]
for d in docs:
    call("mediqa_qa2019/utils.py", "doc_to_text", "doc", u.doc_to_text, d, d)
    call("mediqa_qa2019/utils.py", "doc_to_target", "doc", u.doc_to_target, d, d)
    call("mediqa_qa2019/utils_perplexity.py", "doc_to_target", "doc", up.doc_to_target, d, d)
    for ll in [-80.75, -3.0]:
        with contextlib.redirect_stdout(io.StringIO()):
            call("mediqa_qa2019/utils_perplexity.py", "process_results", "process_results", up.process_results, {"doc": d, "results": [ll]}, d, [ll])
write(os.path.join(HERE, "vectors.json"))
