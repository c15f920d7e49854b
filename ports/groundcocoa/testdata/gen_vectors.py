#!/usr/bin/env python3
"""Vectors for ports/groundcocoa from lm-eval's own groundcocoa/utils.py.

usage (from the repository root; the real packages, make parity's venv):
  build/parity/venv/bin/python scripts/parity/realgen_all.py groundcocoa

The documents keep GroundCocoa's schema, every option a string (or null):
the real datasets (Arrow) takes one type per column.
"""
import datasets
import datasets_ext  # noqa: F401  (fidelity/pystubs: Dataset.from_pandas for the stand-in datasets)
import vectest

V = vectest.Vectors("groundcocoa/utils.py")
m = vectest.load("groundcocoa/utils.py")
docs = [{"query": "Nonstop, under $300.", "Option A": "Flight 1", "Option B": "42", "Option C": None, "Option D": "F4", "Option E": "1.5", "Answer": "B", "id": 7},
        {"query": "q", "Option A": "a", "Option B": "b", "Option C": "c", "Option D": "d", "Option E": "e", "Answer": "E", "id": 8}]
V.call("process_docs", "process_docs", docs, lambda: list(m.process_docs(datasets.Dataset.from_list(docs))))
V.write(vectest.out_path(__file__))
