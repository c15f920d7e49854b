#!/usr/bin/env python3
"""Vectors for ports/lingoly from lm-eval's own lingoly/utils.py and script.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/lingoly/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import json

import datasets
import vectest

V = vectest.Vectors("lingoly/utils.py")
u = vectest.load("lingoly/utils.py")
s = vectest.load("lingoly/script.py")
qs = [
    {"prompt": "Translate into English:", "subprompts": [
        {"questionpart_n": "a", "question": "kala", "answer": "fish"},
        {"questionpart_n": "b", "question": "moana", "answer": "['sea', 'ocean']"},
        {"questionpart_n": 3, "question": "ī", "answer": ["yes", "indeed"]}]},
    {"prompt": "Fill in the blanks", "subprompts": [
        {"questionpart_n": "1.", "question": "__ te", "answer": "Ka"},
        {"questionpart_n": "1.", "question": "dup", "answer": "Dup"}]},
]
sheets = [{"overall_question_n": 7, "preamble": "Māori is a Polynesian language.", "context": "Some «context» lines.\nSecond.", "questions": json.dumps(qs, ensure_ascii=False)},
          {"overall_question_n": 8, "preamble": "P2", "context": "C2", "questions": json.dumps([{"prompt": "Q", "subprompts": [{"questionpart_n": "x", "question": "1.5", "answer": ""}]}])}]
V.call("load_all_questions", "process_docs", sheets, lambda: list(u.load_all_questions(datasets.Dataset.from_list(sheets))))
docs = list(u.load_all_questions(datasets.Dataset.from_list(sheets)))
preds = ['{"a": "Fish.", "b": "the ocean", "3": "yes"}', "{'a': 'fish', 'b': 'sea'", "a': fish', b': 'sea', 3': 'INDEED'}",
         'no json at all', '{"1.": "ka"}', '{"1.": "Dup"}', "{'x': 'anything'}", "", '{"a": "fïsh", "b": "‘sea’"}']
calls = [{"references": [d["answers"]], "predictions": [p]} for d in docs for p in preds]
V.call("exact_match", "metric", calls, lambda: [s.exact_match(**c) for c in calls], file="lingoly/script.py")
V.call("exact_match", "metric_agg", calls, lambda: s.aggregate_scores([s.exact_match(**c) for c in calls]), file="lingoly/script.py", agg="aggregate_scores")
V.write(vectest.out_path(__file__))
