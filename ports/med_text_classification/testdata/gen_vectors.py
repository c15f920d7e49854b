#!/usr/bin/env python3
"""Reference vectors for ports/med_text_classification from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/med_text_classification/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "med_text_classification/med_text_classification_utils.py"
F = "med_text_classification/utils.py"
u = load(F)
for n in [0, 9, 10, 30, 70, 101]:
    docs = [{"class": 1 + i % 5, "text": f"text {i}"} for i in range(n)]
    call(F, "process_docs", "process_docs", lambda: list(u.process_docs(DS(docs))), docs)
docs = [{"description": "d", "medical_specialty": " Urology", "sample_name": "s", "transcription": "t", "keywords": None}]
call(F, "process_docs_hard", "process_docs", lambda: list(u.process_docs_hard(DS(docs))), docs)
for d in [{"class": 3, "text": "Tissue factor and thrombin in the pathogenesis of coronary artery disease."},
          {"class": "5", "text": 12}, {"class": " 2 ", "text": "x"}, {"class": 1.9, "text": "x"}, {"class": "1_0", "text": "x"},
          {"class": "a", "text": "x"}, {"class": None, "text": "x"}, {"text": "x"}, {"class": True, "text": "x"}, {"class": "+4", "text": "x"}]:
    call(F, "doc_to_text_easy", "doc", u.doc_to_text_easy, d, d)
    call(F, "doc_to_target_easy", "doc", u.doc_to_target_easy, d, d)
    call(F, "doc_to_choice_easy", "doc", u.doc_to_choice_easy, d, d)
for d in [{"medical_specialty": " Urology", "transcription": "SUBJECTIVE: This 23-year-old white female presents with complaint of allergies."},
          {"medical_specialty": " Discharge Summary", "transcription": None},
          {"medical_specialty": "Urology", "transcription": "x"}, {"transcription": "x"}]:
    call(F, "doc_to_text_hard", "doc", u.doc_to_text_hard, d, d)
    call(F, "doc_to_target_hard", "doc", u.doc_to_target_hard, d, d)
    call(F, "doc_to_choice_hard", "doc", u.doc_to_choice_hard, d, d)
write(os.path.join(HERE, "vectors.json"))
