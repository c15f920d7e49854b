#!/usr/bin/env python3
"""Reference vectors for ports/mimic_repsum from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/mimic_repsum/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "mimic_repsum/mimic_repsum_utils.py"
from vecreplay import stub_evaluate  # noqa: E402

stub_evaluate()

u = load("mimic_repsum/utils.py")
up = load("mimic_repsum/utils_perplexity.py")
texts = [
    "FINAL REPORT INDICATION: Cough. FINDINGS: The lungs are clear. No pleural effusion.     IMPRESSION: No acute cardiopulmonary process.     END",
    "IMPRESSION: Stable cardiomegaly.     FINDINGS: Heart size is enlarged but stable.     done",
    "impression: lower case impression here. findings: lower case findings",
    "No sections at all in this report.",
    "FINDINGS: Only findings, no impression section.",
    "IMPRESSION: Only an impression, long enough.",
    "ab IMPRESSION: x FINDING",
    "Intro text before.IMPRESSION:short FINDINGS:",
    "ſome IMPRESSIOn mixed: here. Finding y",
]
for t in texts:
    d = {"extractive_notes_summ": t, "target_text": "x", "hadm_id": 1}
    call("mimic_repsum/utils.py", "doc_to_text", "doc", u.doc_to_text, d, d)
    call("mimic_repsum/utils.py", "doc_to_target", "doc", u.doc_to_target, d, d)
    call("mimic_repsum/utils_perplexity.py", "process_results", "process_results", up.process_results, {"doc": d, "results": [-9.5]}, d, [-9.5])
for d in [{"extractive_notes_summ": None}, {}]:
    call("mimic_repsum/utils.py", "doc_to_text", "doc", u.doc_to_text, d, d)
write(os.path.join(HERE, "vectors.json"))
