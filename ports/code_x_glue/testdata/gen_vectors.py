#!/usr/bin/env python3
"""Reference vectors for ports/code_x_glue from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/code_x_glue/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "code_x_glue/code_x_glue_utils.py"
D = "code_x_glue/code-text/"
u = load(D + "utils.py")
b = load(D + "bleu.py")
docs = [
    {"id": 0, "repo": "r", "path": "p", "func_name": "f", "original_string": "o", "language": "go", "code": "c",
     "code_tokens": ["func", "(", "s", "*", "Server", ")", "Start", "(", ")", "error", "{", "return", "s", ".", "run", "(", ")", "}"],
     "docstring": "Start starts the server.", "docstring_tokens": ["Start", "starts", "the", "server", "."], "sha": "x", "url": "u"},
    {"code_tokens": ["def", " f\n(x) ", "\n", "\t", "return", "x\u00a0y"], "docstring_tokens": ["Line\none", "", "  two  ", "thr\nee"]},
    {"code_tokens": "abc", "docstring_tokens": []},
    {"code_tokens": ["a", 1], "docstring_tokens": ["x"]},
]
for d in docs:
    call(D + "utils.py", "doc_to_text", "doc", u.doc_to_text, d, d)
    call(D + "utils.py", "doc_to_target", "doc", u.doc_to_target, d, d)
pairs = [
    ("Start starts the server .", "Start starts the server ."),
    ("Start starts the server .", "starts the server"),
    ("Returns the number of items in the list .", "Return number of elements"),
    ("", "anything"),
    ("x", ""),
    ("", ""),
    ("Parse & validate <input> &amp; &lt;tag&gt; &quot;q&quot;", "parse &amp; validate input"),
    ("value 3.14 , 1,000 and 2-3 x-y", "value 3.14, 1,000 and 2 - 3"),
    ("Ünïcode wörds ÄÖÜ naïve café", "unicode words café"),
    ("a-\nb <skipped> c\nd", "ab c d"),
    ("It's the {best} [thing] `ever` ~ | @ # $ % ^ * ( ) + = ; : ' \" ? / \\", "its the best thing ever"),
    ("   Leading and trailing   ", "leading and trailing"),
    ("one two three four five six seven eight", "one two three four five six seven eight nine ten"),
    ("İstanbul ΣΑΣ", "istanbul σας"),
]
for ref, pred in pairs:
    inp = {"references": [ref], "predictions": [pred], "kwargs": {}}
    call(D + "bleu.py", "smoothed_bleu_4", "metric", b.smoothed_bleu_4, inp, [ref], [pred], tol=1e-12)
inp = {"references": [p[0] for p in pairs], "predictions": [p[1] for p in pairs], "kwargs": {}}
call(D + "bleu.py", "smoothed_bleu_4", "metric", b.smoothed_bleu_4, inp, inp["references"], inp["predictions"], tol=1e-12)
write(os.path.join(HERE, "vectors.json"))
