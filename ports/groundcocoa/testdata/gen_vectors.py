#!/usr/bin/env python3
"""Vectors for ports/groundcocoa from lm-eval's own groundcocoa/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/groundcocoa/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import sys
import types

import datasets
import vectest

# utils.py builds its result with Dataset.from_pandas(pd.DataFrame(rows)):
# the stub datasets has no from_pandas; rows are what it keeps.
datasets.Dataset.from_pandas = classmethod(lambda cls, df, **kw: cls(df.to_dict("records"), columns=list(df.columns)))
V = vectest.Vectors("groundcocoa/utils.py")
m = vectest.load("groundcocoa/utils.py")
docs = [{"query": "Nonstop, under $300.", "Option A": "Flight 1", "Option B": 42, "Option C": None, "Option D": "F4", "Option E": 1.5, "Answer": "B", "id": 7},
        {"query": "q", "Option A": "a", "Option B": "b", "Option C": "c", "Option D": "d", "Option E": "e", "Answer": "E", "id": 8}]
V.call("process_docs", "process_docs", docs, lambda: list(m.process_docs(datasets.Dataset.from_list(docs))))
V.write(vectest.out_path(__file__))
