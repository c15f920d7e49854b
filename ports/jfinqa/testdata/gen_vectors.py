#!/usr/bin/env python3
"""Vectors for ports/jfinqa from lm-eval's own jfinqa/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/jfinqa/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import vectest

V = vectest.Vectors("jfinqa/utils.py")
m = vectest.load("jfinqa/utils.py")
for d in [
    {"pre_text": ["Revenue increased.", "Second."], "table_headers": ["Item", "2023", 2024], "table_rows": [["Revenue", "100", 120], ["Cost", None, 1.5]],
     "post_text": ["Note: in millions."], "question": "What is the growth rate?", "answer": "20%"},
    {"question": "Is this correct?"},
    {"pre_text": [], "table_headers": [], "table_rows": [], "post_text": None, "question": 42},
    {"pre_text": ["a"], "table_headers": ["h"], "table_rows": [], "question": "q"},
]:
    V.call("doc_to_text", "doc", d, m.doc_to_text, d)
cases = [
    ("10.5%", "Answer: 10.5%"), ("10.4%", "Answer: 10.5%"), ("50.0%", "Answer: 10.5%"), ("10.5%", None), ("改善", "Answer: 改善した"),
    ("100百万円", "answer: 100百万円"), ("5千円", "A: 5000"), ("3億円", "回答：3億円"), ("2兆円", "Answer：２兆円"), ("△5.2%", "Answer: -5.2%"),
    ("1,234百万円", "reasoning\nline two\nAnswer: 1234百万円"), ("はい", "line one\nline two\nはい"), ("0", "Answer: 0"), ("0", "Answer: 0.1"),
    ("100bps", "Answer: 100bps"), ("３．５ポイント", "Answer: 3.5ポイント"), ("悪化しました", "Answer: 悪化"), ("1.2.3", "Answer: 1.2.3"),
    ("", ""), ("x", "\n\n  \n"), ("50ドル", "The answer is 50ドル"), ("千", "Answer: 千"), ("▲20%", "Answer: -20"),
]
for gold, out in cases:
    d = {"answer": gold}
    r = [] if out is None else [out]
    V.call("process_results", "process_results", {"doc": d, "results": r}, m.process_results, d, r)
V.write(vectest.out_path(__file__))
