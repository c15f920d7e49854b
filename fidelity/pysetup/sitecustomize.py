"""Loaded by the lm-eval processes gen.py starts (first on PYTHONPATH):
datasets' map cache (ports/testdata/dscache) and ifeval's reference setup
(ports/ifeval/testdata/refsetup.py: NLTK's English Punkt parameters and a
seeded langdetect, as the ifeval vectors were made), so ifeval's helpers
import and run without NLTK data; and the Dataset methods of
fidelity/pystubs/datasets_ext.py (groundcocoa's from_pandas)."""
import os
import runpy
import sys

_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
runpy.run_path(os.path.join(_root, "ports", "testdata", "dscache", "sitecustomize.py"))
sys.path.insert(0, os.path.join(_root, "ports", "ifeval", "testdata"))
import refsetup  # noqa: E402,F401
sys.path.insert(0, os.path.join(_root, "fidelity", "pystubs"))
import datasets_ext  # noqa: E402,F401
