#!/usr/bin/env python3
"""Vectors for ports/qasper from lm-eval's own qasper/utils.py and metrics.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/qasper/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import datasets
import vectest

V = vectest.Vectors("qasper/utils.py")
m = vectest.load("qasper/utils.py")


def blob(unans=False, yes_no=None, ffa="", spans=()):
    return {"unanswerable": unans, "yes_no": yes_no, "free_form_answer": ffa, "extractive_spans": list(spans), "evidence": [], "highlighted_evidence": []}


docs = [{"id": "p1", "title": "T1", "abstract": "A1", "full_text": {"x": 1},
         "qas": {"question": ["Q1?", "Q2?", "Q3?"], "question_id": ["a", "b", "c"],
                 "answers": [{"answer": [blob(yes_no=True), blob(ffa="a free answer")]},
                             {"answer": [blob(unans=True), blob(yes_no=False), blob(spans=["s1", "s2"])]},
                             {"answer": [blob(ffa="second free")]}]}},
        {"id": "p2", "title": "T2", "abstract": "A2", "full_text": {}, "qas": {"question": [], "question_id": [], "answers": []}}]
for fn in ["process_docs_bool", "process_docs_freeform"]:
    V.call(fn, "process_docs", docs, lambda: list(getattr(m, fn)(datasets.Dataset.from_list(docs))))
bad = [{"id": "p3", "title": "T", "abstract": "A", "qas": {"question": ["Q"], "question_id": ["q"], "answers": [{"answer": [blob()]}]}}]
V.call("process_docs_bool", "process_docs", bad, lambda: list(m.process_docs_bool(datasets.Dataset.from_list(bad))))
mm = vectest.load("qasper/metrics.py")
calls = [{"predictions": [p], "references": [r]} for p, r in [("a free answer", "A free answer."), ("free", "a free answer"), ("nothing", "something"), ("the the", "a an")]]
V.call("f1_abstractive", "metric", calls, lambda: [mm.f1_abstractive(**c) for c in calls], file="qasper/metrics.py")
V.write(vectest.out_path(__file__))
