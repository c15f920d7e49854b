#!/usr/bin/env python3
"""Reference vectors for ports/wsc273 from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/wsc273/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "wsc273/utils.py"
u = load(F)
docs = [
    {"text": "The city councilmen refused the demonstrators a permit because they feared violence.", "pronoun": "they",
     "pronoun_loc": 63, "quote": "they feared violence", "quote_loc": 63, "options": ["The city councilmen", "The demonstrators"],
     "label": 0, "source": "(Winograd 1972)"},
    {"text": "Joan made sure to thank Susan for all the help she had given.  She was kind.", "pronoun": "She",
     "pronoun_loc": 63, "quote": "", "quote_loc": 0, "options": ["Joan", "Susan"], "label": 1, "source": "s"},
    {"text": "The man couldn't lift his son because his  son was so heavy.", "pronoun": "his", "pronoun_loc": 40,
     "quote": "", "quote_loc": 0, "options": ["The man", "The son"], "label": 0, "source": "s"},
    {"text": "Paul tried to call George. His phone was busy.", "pronoun": "His", "pronoun_loc": 27,
     "quote": "", "quote_loc": 0, "options": ["The Paul The", "George"], "label": 0, "source": "s"},
    {"text": "x. It is", "pronoun": "It", "pronoun_loc": 0, "quote": "", "quote_loc": 0, "options": ["It It", "An apple"], "label": 0, "source": "s"},
    {"text": "ab", "pronoun": "OUR", "pronoun_loc": 1, "quote": "", "quote_loc": 0, "options": ["Their cat", "My dog"], "label": 0, "source": "s"},
]
call(F, "process_doc", "process_docs", lambda: list(u.process_doc(DS([{**d, "options": list(d["options"])} for d in docs]))), docs)
for bad in [{"text": "ab", "pronoun": "he", "pronoun_loc": 10, "options": ["A", "B"]},
            {"text": "ab", "pronoun": "he", "pronoun_loc": 1, "options": ["  ", "B"]}]:
    call(F, "process_doc", "process_docs", lambda: list(u.process_doc(DS([{**bad, "options": list(bad["options"])}]))), [bad])
write(os.path.join(HERE, "vectors.json"))
