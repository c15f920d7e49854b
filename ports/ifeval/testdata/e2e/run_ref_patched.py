#!/usr/bin/python3
"""run_ref.py (../shared/lm-eval-runner) with refsetup's patches applied
first (nltk version check, NLTK's English Punkt parameters, langdetect seed
0), so lm-eval's ifeval helpers import and run on Debian's Python.

    run_ref_patched.py RUN_REF.py [run_ref.py arguments...]
"""
import os
import runpy
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import refsetup  # noqa: E402,F401

script = sys.argv[1]
sys.argv = sys.argv[1:]
runpy.run_path(script, run_name="__main__")
