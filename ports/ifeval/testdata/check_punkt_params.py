#!/usr/bin/python3
"""Checks that the English Punkt parameters of github.com/neurosnap/sentences
are NLTK's: NLTK's own doctests whose expected outputs were written with
NLTK's english.pickle (nltk/test/tokenize.doctest, which exercises
sent_tokenize and word_tokenize on punkt's English model, and the punkt
doctests in nltk/tokenize/punkt.py and nltk/tokenize/__init__.py) pass with
them loaded into NLTK's PunktSentenceTokenizer.

    PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src:. /usr/bin/python3 check_punkt_params.py

or with nltk 3.10.4 (make parity's venv, from the repository root), where the
English examples pass and the 5 that need other NLTK data (German punkt,
stopwords, brown) fail for want of it:

    NLTK_DATA=build/parity/nltk_data build/parity/venv/bin/python scripts/parity/realgen.py \
      ports/ifeval/testdata/check_punkt_params.py
"""
import doctest
import os
import sys

import refsetup  # noqa: F401  (serves the parameters as tokenizers/punkt/english.pickle)
import nltk
import nltk.tokenize
import nltk.tokenize.punkt

base = os.path.dirname(nltk.__file__)
failed = tried = 0
r = doctest.testfile(os.path.join(base, "test", "tokenize.doctest"), module_relative=False,
                     optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False, report=True)
print("tokenize.doctest:", r)
failed += r.failed
tried += r.attempted
for mod in (nltk.tokenize, nltk.tokenize.punkt):
    r = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    print(mod.__name__, r)
    failed += r.failed
    tried += r.attempted
print("attempted", tried, "failed", failed)
sys.exit(1 if failed else 0)
