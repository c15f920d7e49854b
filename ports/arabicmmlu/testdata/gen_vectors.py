#!/usr/bin/env python3
"""Vectors for ports/arabicmmlu from lm-eval's own helpers.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src /usr/bin/python3 \
    ports/arabicmmlu/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import sys

sys.path.insert(0, "ports/internal/vectest")
import vectorlib as V  # noqa: E402

V.setup(sys.argv[1])
rel = "arabicmmlu/utils.py"
m = V.load(rel)


def doc(**kw):
    d = {"ID": 1, "Source": "s", "Country": "Egypt", "Group": "Humanities", "Subject": "History", "Level": "High",
         "Question": "متى؟", "Context": None, "Answer Key": "A",
         "Option 1": "أ", "Option 2": "ب", "Option 3": "ج", "Option 4": "د", "Option 5": None,
         "is_few_shot": 0}
    d.update(kw)
    return d


for d in [
    doc(),
    doc(Country=None, Level=None, Context="سياق"),
    doc(Level="Univ", Country="", Context="", **{"Option 3": None, "Option 4": None}),
    doc(Level="Prof", **{"Option 2": "", "Option 3": "c"}),  # empty option before a full one
    doc(Level="Primary", Subject=3, Question=4, **{"Option 5": "e", "Option 1": 0}),
    doc(Level="Middle", Context="{}", Question="Q {}"),
    doc(Level="Kindergarten"),
    doc(Country=5),
    {k: v for k, v in doc().items() if k != "Option 5"},
]:
    V.doc(rel, "doc_to_text", m.doc_to_text, d)
    V.doc(rel, "doc_to_choice", m.doc_to_choice, d)
V.dump("ports/arabicmmlu/testdata/vectors.json")
